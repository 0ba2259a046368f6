# Convenience targets; each one goes through scripts/run.sh, which sets up .venv on first use.
.PHONY: demo test bench lint coverage-doc
demo:
	bash scripts/run.sh demo
test:
	bash scripts/run.sh test
bench:
	bash scripts/bench_setup.sh
lint:
	.venv/bin/ruff check hostwcg_env agents scripts tests && .venv/bin/mypy
coverage-doc:
	.venv/bin/python scripts/rules_coverage.py
