#!/usr/bin/env bash
# docs.transcripts_match: every command transcript in the markdown files is what the command prints.
#   check_transcripts.sh TESSERA DOC.md...
# A transcript is a fenced block with a line that starts with `$ `. Each `$ ` line (with the lines
# after it while it ends in a backslash) is a command; the lines up to the next `$ ` line or the end
# of the block are its expected output, standard output and standard error together. The commands
# of a block run in order in one bash process (a variable set by one is seen by the next) in a fresh
# empty directory, with `tessera` standing for TESSERA and standard input empty unless the command
# pipes into it. A command passes when its output is the expected lines exactly, its exit status is
# 1 where the expected output shows an `error:` line and 0 otherwise, and each file it names with
# `-o FILE` / `--output FILE` exists and is not empty.
# A block that cannot be replayed here (it needs a GPU, a file that is not in the repository, ...)
# is marked on the line before it with
#   <!-- transcript: not replayed: REASON -->
# and is listed with its reason instead of run. Fails, listing every difference, when a command
# differs, a marker is not followed by a block, or no transcript was found at all.
set -uo pipefail

if [ $# -lt 2 ]; then
  echo "usage: check_transcripts.sh TESSERA DOC.md..." >&2
  exit 2
fi
tessera_bin=$1
shift
if [ ! -x "${tessera_bin}" ]; then
  echo "docs.transcripts_match: ${tessera_bin} is not an executable" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "${tmp}"' EXIT
mkdir -p "${tmp}/blocks"

# Split the transcripts: blocks/<b>/ holds `where` (FILE:LINE of the block), `skip` (the reason, for
# a marked block) and per command k: cmd.<k>, expected.<k> and line.<k> (the command's line).
b=0
for doc in "$@"; do
  awk -v dir="${tmp}/blocks" -v first="${b}" '
    function emit(   k, i, d) {
      if (ncmd == 0) { skip = ""; return }
      b++
      d = dir "/" b
      system("mkdir -p \"" d "\"")
      print FILENAME ":" start > (d "/where"); close(d "/where")
      if (skip != "") { print skip > (d "/skip"); close(d "/skip") }
      for (k = 1; k <= ncmd; k++) {
        printf "%s", cmd[k] > (d "/cmd." k); close(d "/cmd." k)
        print cline[k] > (d "/line." k); close(d "/line." k)
        printf "" > (d "/expected." k)
        for (i = 1; i <= nexp[k]; i++) print outl[k, i] > (d "/expected." k)
        close(d "/expected." k)
      }
      skip = ""
    }
    BEGIN { b = first }
    /^[ \t]*<!-- transcript: not replayed: .* -->[ \t]*$/ && !inblock {
      marker = $0; sub(/^[ \t]*<!-- transcript: not replayed: /, "", marker); sub(/ -->[ \t]*$/, "", marker)
      marker_line = FNR; next
    }
    /^[ \t]*```/ {
      if (!inblock) {
        inblock = 1; start = FNR; ncmd = 0; cont = 0
        match($0, /^[ \t]*/); indent = RLENGTH   # a fence inside a list item: its lines are indented
        skip = marker; marker = ""
        next
      }
      inblock = 0
      if (skip != "" && ncmd == 0) {
        print FILENAME ":" marker_line ": the transcript marker is followed by a block without `$ ` commands" > "/dev/stderr"
        bad = 1
      }
      emit(); next
    }
    inblock {
      for (i = 0; i < indent && substr($0, 1, 1) == " "; i++) $0 = substr($0, 2)
      if (cont) {                       # a continuation line of the command
        cmd[ncmd] = cmd[ncmd] $0 "\n"
        cont = ($0 ~ /\\$/)
        next
      }
      if ($0 ~ /^\$ /) {
        ncmd++
        cmd[ncmd] = substr($0, 3) "\n"; cline[ncmd] = FNR; nexp[ncmd] = 0
        cont = ($0 ~ /\\$/)
        next
      }
      if (ncmd > 0) { nexp[ncmd]++; outl[ncmd, nexp[ncmd]] = $0 }
      next
    }
    /^[ \t]*$/ { next }
    marker != "" {
      print FILENAME ":" marker_line ": the transcript marker is not followed by a fenced block" > "/dev/stderr"
      bad = 1; marker = ""
    }
    END {
      if (marker != "") { print FILENAME ":" marker_line ": the transcript marker is not followed by a fenced block" > "/dev/stderr"; bad = 1 }
      print b > (dir "/count")
      exit bad
    }' "${doc}" 2>>"${tmp}/errors" || true
  b=$(cat "${tmp}/blocks/count" 2>/dev/null || echo "${b}")
done

blocks=0 commands=0 skipped=0
for d in $(ls "${tmp}/blocks" | grep -E '^[0-9]+$' | sort -n); do
  dir="${tmp}/blocks/${d}"
  where=$(cat "${dir}/where")
  if [ -f "${dir}/skip" ]; then
    echo "not replayed: ${where}: $(cat "${dir}/skip")"
    skipped=$((skipped + 1))
    continue
  fi
  blocks=$((blocks + 1))
  work="${tmp}/work.${d}"
  mkdir -p "${work}"
  # The block as one script: each command's output and exit status go to got.<k> and status.<k>.
  {
    printf 'tessera() { %q "$@"; }\n' "${tessera_bin}"
    for cmdfile in "${dir}"/cmd.*; do
      k=${cmdfile##*.}
      printf '{\n'
      cat "${cmdfile}"
      printf '} >%q 2>&1 </dev/null\necho $? >%q\n' "${tmp}/got.${d}.${k}" "${tmp}/status.${d}.${k}"
    done
  } >"${tmp}/run.${d}.sh"
  (cd "${work}" && bash "${tmp}/run.${d}.sh" </dev/null >/dev/null 2>&1)
  for cmdfile in $(ls "${dir}" | grep -E '^cmd\.[0-9]+$' | sort -t. -k2 -n); do
    k=${cmdfile##*.}
    commands=$((commands + 1))
    at="${where%%:*}:$(cat "${dir}/line.${k}")"
    text=$(head -n 1 "${dir}/${cmdfile}")
    got="${tmp}/got.${d}.${k}"
    if [ ! -f "${got}" ]; then
      echo "${at}: \$ ${text}: did not run (an earlier command of the block ended the shell)" >>"${tmp}/errors"
      continue
    fi
    if ! diff -u --label "expected (${at})" --label "tessera printed" "${dir}/expected.${k}" "${got}" >"${tmp}/diff"; then
      echo "${at}: \$ ${text}: the output differs:" >>"${tmp}/errors"
      cat "${tmp}/diff" >>"${tmp}/errors"
    fi
    want=0
    grep -q '^error: ' "${dir}/expected.${k}" && want=1
    status=$(cat "${tmp}/status.${d}.${k}")
    if [ "${status}" != "${want}" ]; then
      echo "${at}: \$ ${text}: exit status ${status}, expected ${want}" >>"${tmp}/errors"
    fi
    # Files the command writes: each must exist and not be empty.
    words=$(tr '\n' ' ' <"${dir}/${cmdfile}")
    while [[ ${words} =~ (^|[[:space:]])(-o|--output)[[:space:]]+([^[:space:]|;&]+)(.*)$ ]]; do
      file=${BASH_REMATCH[3]}
      words=${BASH_REMATCH[4]}
      if [ ! -s "${work}/${file}" ]; then
        echo "${at}: \$ ${text}: wrote no ${file} (or an empty one)" >>"${tmp}/errors"
      fi
    done
  done
done

if [ "${commands}" -eq 0 ]; then
  echo "no transcript found in: $*" >>"${tmp}/errors"
fi
if [ -s "${tmp}/errors" ]; then
  echo "docs.transcripts_match: mismatches:"
  cat "${tmp}/errors"
  exit 1
fi
echo "docs.transcripts_match: ${commands} commands in ${blocks} blocks of $# files print what the docs show (${skipped} blocks marked not replayed)"
