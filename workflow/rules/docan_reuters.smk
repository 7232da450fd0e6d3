# Document-analysis report (Sengupta 2018): rules arrive with issue 3.
