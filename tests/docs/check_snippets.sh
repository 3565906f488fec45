#!/usr/bin/env bash
# docs.snippets_match: every C++ block in the markdown files is a snippet cut from SOURCE.
#   check_snippets.sh SOURCE.cpp DOC.md...
# SOURCE marks a snippet with `// [snippet:NAME]` ... `// [end-snippet]`; a markdown file shows it
# as a ```cpp block right after `<!-- snippet:NAME -->`. Both copies are compared after removing
# their common leading indentation. Fails, listing every problem, when a block differs, names an
# unknown snippet or has no marker, or when a snippet of SOURCE is shown nowhere.
set -uo pipefail

src=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "${tmp}"' EXIT
mkdir -p "${tmp}/src" "${tmp}/doc"

# flush(path): awk helper shared by both extractors: writes lines[1..n] minus their common indent.
read -r -d '' DEDENT <<'AWK'
function flush(path,   i, m, k, line) {
  m = -1
  for (i = 1; i <= n; i++) {
    if (lines[i] ~ /^[ \t]*$/) continue
    match(lines[i], /^ */)
    if (m < 0 || RLENGTH < m) m = RLENGTH
  }
  if (m < 0) m = 0
  printf "" > path
  for (i = 1; i <= n; i++) {
    line = lines[i]
    if (line ~ /^[ \t]*$/) line = ""; else line = substr(line, m + 1)
    print line > path
  }
  close(path)
  n = 0
}
AWK

# Snippets of the source file: one file per name.
awk -v dir="${tmp}/src" "${DEDENT}"'
  /^[ \t]*\/\/ \[snippet:[A-Za-z0-9_]+\][ \t]*$/ {
    if (name != "") { print FILENAME ":" FNR ": snippet " name " is not closed" > "/dev/stderr"; bad = 1 }
    name = $0; sub(/^[ \t]*\/\/ \[snippet:/, "", name); sub(/\].*$/, "", name)
    if (name in seen) { print FILENAME ":" FNR ": snippet " name " defined twice" > "/dev/stderr"; bad = 1 }
    seen[name] = 1; n = 0; next
  }
  /^[ \t]*\/\/ \[end-snippet\][ \t]*$/ {
    if (name == "") { print FILENAME ":" FNR ": [end-snippet] without [snippet:...]" > "/dev/stderr"; bad = 1; next }
    flush(dir "/" name); name = ""; next
  }
  name != "" { lines[++n] = $0 }
  END {
    if (name != "") { print FILENAME ": snippet " name " is not closed" > "/dev/stderr"; bad = 1 }
    exit bad
  }' "${src}" 2>"${tmp}/errors" || true

# Blocks of each markdown file: doc/<index>.<NAME> plus a "file:line NAME" index.
i=0
for doc in "$@"; do
  i=$((i + 1))
  awk -v dir="${tmp}/doc" -v tag="${i}" -v index_file="${tmp}/index" "${DEDENT}"'
    /^[ \t]*<!-- snippet:[A-Za-z0-9_]+ -->[ \t]*$/ {
      pending = $0; sub(/^[ \t]*<!-- snippet:/, "", pending); sub(/ -->.*$/, "", pending)
      pending_line = FNR; next
    }
    inblock && /^[ \t]*```[ \t]*$/ {
      inblock = 0
      if (name != "") { flush(dir "/" tag "." name); print FILENAME ":" start " " tag "." name >> index_file }
      name = ""; next
    }
    inblock { if (name != "") lines[++n] = $0; next }
    /^[ \t]*```/ {
      lang = $0; sub(/^[ \t]*```[ \t]*/, "", lang)
      inblock = 1; n = 0; start = FNR; name = ""
      if (lang == "cpp" || lang == "c++" || lang == "cxx") {
        if (pending == "") { print FILENAME ":" FNR ": C++ block without <!-- snippet:NAME -->" > "/dev/stderr"; bad = 1 }
        else name = pending
      }
      pending = ""; next
    }
    /^[ \t]*$/ { next }
    pending != "" { print FILENAME ":" pending_line ": <!-- snippet:" pending " --> is not followed by a ```cpp block" > "/dev/stderr"; bad = 1; pending = "" }
    END { exit bad }' "${doc}" 2>>"${tmp}/errors" || true
done

# Compare.
touch "${tmp}/index"
declare -A shown=()
while read -r where key; do
  name=${key#*.}
  shown[${name}]=1
  if [ ! -f "${tmp}/src/${name}" ]; then
    echo "${where}: snippet ${name} does not exist in ${src}" >>"${tmp}/errors"
  elif ! diff -u --label "${src} [snippet:${name}]" --label "${where}" \
      "${tmp}/src/${name}" "${tmp}/doc/${key}" >"${tmp}/diff"; then
    echo "${where}: snippet ${name} differs from ${src}:" >>"${tmp}/errors"
    cat "${tmp}/diff" >>"${tmp}/errors"
  fi
done <"${tmp}/index"
for f in "${tmp}"/src/*; do
  [ -e "${f}" ] || continue
  name=$(basename "${f}")
  if [ -z "${shown[${name}]+x}" ]; then
    echo "${src}: snippet ${name} is shown in no markdown file" >>"${tmp}/errors"
  fi
done

if [ -s "${tmp}/errors" ]; then
  echo "docs.snippets_match: mismatches:"
  cat "${tmp}/errors"
  exit 1
fi
echo "docs.snippets_match: $(wc -l <"${tmp}/index") blocks in $# files match ${src}"
