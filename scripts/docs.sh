#!/usr/bin/env bash
# scripts/docs.sh (a step of scripts/test.sh): every example of the user docs runs, then the docs
# site is built with `mkdocs build --strict` into target/site/ (open target/site/index.html).
#
#   1 Python examples: tests/docs/run_python.py (doctest; each file one session in a fresh
#     temporary cwd) over README.md, python/README.md and docs/**/*.md (less the contributor docs
#     of mkdocs.yml's exclude_docs)
#   2 JavaScript/TypeScript examples: tests/docs/run_js.mjs (tsc --checkJs --strict against dist/,
#     then each ```js block in Node with tests/fixtures/stores served on a free port)
#   3 API references, generated into git-ignored folders under docs/api/:
#     javascript/ (TypeDoc + typedoc-plugin-markdown, tests/docs/typedoc.mjs) and rust/ (rustdoc
#     of the library, `cargo doc --no-deps -p zarr-scale-offset`, and of the zarrs plugin in its
#     own workspace); the Python reference is mkdocstrings' (docs/api/python.md), read from
#     python/ when the site is built
#   4 mkdocs build --strict (broken links and anchors fail it)
# The Rust examples (```rust in README.md) are doc tests of the root crate (src/lib.rs,
# doc_examples), run by `cargo test`.
#
# Needs: dist/ (npm run build), the wheel installed in .venv (scripts/python-test.sh) and the
# tools of python/requirements-dev.txt and package.json (scripts/setup.sh). Offline.
# Prints the examples run per language and the pages built; exits non-zero on any failure.
# One file's examples by hand: `.venv/bin/python tests/docs/run_python.py docs/guides/x.md`,
# `node tests/docs/run_js.mjs docs/guides/x.md`. Preview the site after one run (the generated
# API folders must exist): `.venv/bin/python -m mkdocs serve`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
PY=$ROOT/.venv/bin/python
export NO_MKDOCS_2_WARNING=1 # mkdocs-material's banner about MkDocs 2.0
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
say() { echo "--- docs: $*"; }

[ -f dist/index.d.ts ] && [ -f dist/zarrita.d.ts ] || { echo "docs: dist/ is missing: npm run build first" >&2; exit 1; }
"$PY" -c "import zarr_scale_offset, mkdocs, mkdocstrings" 2>/dev/null \
  || { echo "docs: .venv lacks zarr_scale_offset or mkdocs: scripts/setup.sh and scripts/python-test.sh first" >&2; exit 1; }

mkdir -p target
failed=()
say "ruff over tests/docs (the Python runner and the griffe extension)"
.venv/bin/ruff format --check --config python/pyproject.toml tests/docs
.venv/bin/ruff check --config python/pyproject.toml tests/docs
t=$SECONDS
# A failing example is reported and the rest still runs (one run shows every failure).
say "Python examples (tests/docs/run_python.py)"
"$PY" tests/docs/run_python.py | tee target/docs-python.log || failed+=("Python examples")
py_line=$(tail -n1 target/docs-python.log)
say "JavaScript/TypeScript examples (tests/docs/run_js.mjs)"
node tests/docs/run_js.mjs | tee target/docs-js.log || failed+=("JavaScript examples")
js_line=$(tail -n1 target/docs-js.log)
# The Rust examples are doc tests of the root crate, run by `cargo test`; here: that every ```rust
# fence of the included files is collected (src/lib.rs, mod doc_examples).
say "Rust examples: cargo test --doc -- --list (doc_examples)"
rust_n=$(cargo test --doc -p zarr-scale-offset --locked -- --list 2>/dev/null | grep -c ' - doc_examples::' || true)
rust_fences=$(sed -n 's/^ *#\[doc = include_str!("\.\.\/\(.*\)")\]/\1/p' src/lib.rs | xargs cat | grep -c '^ *```rust' || true)
if [ "$rust_n" -ne "$rust_fences" ]; then
  echo "docs: $rust_fences \`\`\`rust fences in the files src/lib.rs includes, but $rust_n doc tests collected" >&2
  failed+=("Rust examples")
fi
rust_line="rust examples: $rust_n doc tests collected from the docs (run by cargo test)"
t_examples=$((SECONDS - t))

t=$SECONDS
say "JavaScript API: TypeDoc -> docs/api/javascript/"
node tests/docs/typedoc.mjs
say "Rust API: cargo doc --no-deps -> docs/api/rust/"
rm -rf docs/api/rust
mkdir -p docs/api/rust
# The flags of scripts/outside-crate.sh, so that after it this is no rebuild.
RUSTDOCFLAGS="-D warnings -D rustdoc::broken_intra_doc_links -D missing_docs" \
  cargo doc --no-deps -p zarr-scale-offset --locked
root_target=${CARGO_TARGET_DIR:-$ROOT/target}
cp -r "$root_target/doc" docs/api/rust/zarr-scale-offset
# The zarrs plugin is its own workspace (zarrs 0.23): its target folder is the one the zarrs
# step of scripts/test.sh compiled, so this documents the one crate (~10 s).
(cd crates/zarrs && RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked)
zarrs_target=${CARGO_TARGET_DIR:-$ROOT/crates/zarrs/target}
cp -r "$zarrs_target/doc" docs/api/rust/zarrs-scale-offset
rm -f docs/api/rust/*/.lock
t_api=$((SECONDS - t))

t=$SECONDS
say "mkdocs build --strict -> target/site/"
"$PY" -m mkdocs build --strict --clean 2>&1 | tee target/docs-mkdocs.log
pages=$(find target/site -name index.html -not -path 'target/site/api/rust/*/*' | wc -l)
t_site=$((SECONDS - t))

echo
say "$py_line"
say "$js_line"
say "$rust_line"
say "site: $pages pages built in target/site/ (examples ${t_examples}s, API references ${t_api}s, mkdocs ${t_site}s)"
if [ ${#failed[@]} -gt 0 ]; then
  echo "!!! docs: failed: ${failed[*]}" >&2
  exit 1
fi
