#!/bin/sh
# make lint: shellcheck on every shell script (warnings and errors;
# .shellcheckrc), pyflakes on every Python script. Ends with the line
# "N passed, N failed, N skipped", one check per tool.
set -u
cd "$(dirname "$0")/../.." || exit 1
p=0 f=0
for tool in shellcheck pyflakes3; do
	command -v "$tool" > /dev/null 2>&1 ||
		{ echo "error: lint: no $tool: run 'make setup' (Debian: shellcheck, pyflakes3)" >&2; exit 1; }
done
# The file lists are split into words on purpose (no spaces in names).
sh_files=$(ls scripts/host/*.sh scripts/guest/*.sh tools/*.sh .ci/run 2>/dev/null)
if shellcheck -S warning $sh_files; then
	echo "lint: ok shellcheck ($(echo "$sh_files" | wc -l) scripts)"; p=$((p + 1))
else
	echo "lint: not ok shellcheck"; f=$((f + 1))
fi
py_files=$(ls scripts/host/*.py 2>/dev/null)
if pyflakes3 $py_files; then
	echo "lint: ok pyflakes ($(echo "$py_files" | wc -l) scripts)"; p=$((p + 1))
else
	echo "lint: not ok pyflakes"; f=$((f + 1))
fi
echo "$p passed, $f failed, 0 skipped"
[ "$f" = 0 ]
