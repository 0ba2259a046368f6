# Convenience targets; each one goes through scripts/run.sh, which sets up .venv on first use.
.PHONY: demo test test-fast bench lint coverage-doc notebooks
demo:
	bash scripts/run.sh demo
test:
	bash scripts/run.sh test
test-fast:
	bash scripts/run.sh test -m "not slow" -n 2
bench:
	bash scripts/bench_setup.sh
lint:
	.venv/bin/ruff check hostwcg_env agents scripts tests && .venv/bin/mypy
coverage-doc:
	.venv/bin/python scripts/rules_coverage.py
notebooks:
	.venv/bin/python scripts/run_notebooks.py
