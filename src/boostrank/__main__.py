from boostrank.cli import main

raise SystemExit(main())
