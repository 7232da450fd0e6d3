"""Sub-command ``reuters-corpus``: parse, preprocess and weight Reuters-21578 once.

Writes the document-analysis report's ModApte ten-topic TF-IDF corpus
(:mod:`boostrank.preprocess.reuters_corpus`) to ``.npz`` with a JSON sidecar of settings,
statistics and the raw data's provenance. Heavy modules are imported when the command runs, so
registering it costs every other command nothing.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

log = logging.getLogger(__name__)

# The choices, spelt out so that registering needs no import (tests check they agree with
# reuters_corpus.TEXT_FIELDS, reuters.MULTI_TOPIC_RULES / TOPIC_COUNTINGS and text.STEMMERS).
TEXT_CHOICES = ("body", "title_body")
MULTI_TOPIC_CHOICES = ("first", "any", "single")
COUNTING_CHOICES = ("tags", "documents", "first")
STEMMER_CHOICES = ("NLTK_EXTENSIONS", "ORIGINAL_ALGORITHM", "MARTIN_EXTENSIONS", "snowball", "none")


def _cmd_reuters_corpus(args: argparse.Namespace) -> None:
    from dataclasses import asdict

    from boostrank.data.provenance import Provenance
    from boostrank.io import write_json
    from boostrank.preprocess import reuters
    from boostrank.preprocess.reuters_corpus import CorpusSettings, build_corpus, save_corpus

    provenance = Provenance.load(args.provenance)
    provenance.verify_cached(args.raw_dir)  # what is parsed is what the fetch verified
    settings = CorpusSettings(
        text=args.text,
        multi_topic=args.multi_topic,
        topic_counting=args.topic_counting,
        top_topics=args.top_topics,
        stemmer=args.stemmer,
        min_word_length=args.min_word_length,
        stop_words=args.stop_words,
    )
    docs = reuters.read_reuters(args.raw_dir)
    corpus, stats = build_corpus(docs, settings)
    save_corpus(args.npz, corpus)
    write_json(
        args.meta,
        {
            "dataset": provenance.dataset,
            "data_kind": provenance.kind,
            "provenance_line": provenance.describe(),
            "provenance": provenance.to_dict(),
            "settings": asdict(settings),
            "topics": corpus.topics,
            "stats": {"sgml_documents": len(docs), **stats},
        },
    )
    log.info(
        "corpus: %d train / %d test documents, %d terms, topics %s",
        corpus.X_train.shape[0],
        corpus.X_test.shape[0],
        len(corpus.terms),
        corpus.topics,
    )


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``reuters-corpus`` to the command line."""
    p = sub.add_parser(
        "reuters-corpus", help="Reuters-21578 ModApte top-topic TF-IDF corpus (docan report)"
    )
    p.add_argument("--raw-dir", type=Path, required=True)
    p.add_argument("--provenance", type=Path, required=True, help="raw provenance.json")
    p.add_argument("--npz", type=Path, required=True)
    p.add_argument("--meta", type=Path, required=True)
    p.add_argument("--text", choices=TEXT_CHOICES, default="body")
    p.add_argument("--multi-topic", choices=MULTI_TOPIC_CHOICES, default="first")
    p.add_argument("--topic-counting", choices=COUNTING_CHOICES, default="tags")
    p.add_argument("--top-topics", type=int, default=10)
    p.add_argument("--stemmer", choices=STEMMER_CHOICES, default="NLTK_EXTENSIONS")
    p.add_argument("--min-word-length", type=int, default=1)
    p.add_argument("--stop-words", choices=("snowball", "sklearn"), default="snowball")
    p.set_defaults(func=_cmd_reuters_corpus)
