# Function bodies over MAX lines in C/C++ sources: FILE:LINE: NAME is N lines (from the first line
# of the head to the closing brace). Comments, string/char literals and raw strings are blanked
# first; a brace opens a function when the text before it at namespace/class scope ends in a
# parameter list (with qualifiers, a trailing return type or a constructor's initialiser list) or
# is a lambda's capture; every other brace there (namespace, class, enum, a table's initialiser
# list) is transparent, so tables never count but functions inside them do.
function reset_file() {
  incomment = 0; raw = ""; depth = 0; fdepth = 0; head = ""; hline = 0; pp = 0
}
function strip(s,    out, i, c, n, rest, m, d) {
  out = ""
  n = length(s)
  i = 1
  while (i <= n) {
    if (raw != "") {
      m = index(substr(s, i), ")" raw "\"")
      if (m == 0) return out
      i += m + length(raw) + 1
      raw = ""
      out = out "\"\""
      continue
    }
    if (incomment) {
      m = index(substr(s, i), "*/")
      if (m == 0) return out
      i += m + 1
      incomment = 0
      out = out " "
      continue
    }
    c = substr(s, i, 1)
    if (c == "/" && substr(s, i + 1, 1) == "/") return out
    if (c == "/" && substr(s, i + 1, 1) == "*") { incomment = 1; i += 2; continue }
    if (c == "R" && substr(s, i + 1, 1) == "\"" && (i == 1 || substr(s, i - 1, 1) !~ /[A-Za-z0-9_]/ || substr(s, i - 1, 1) ~ /[uU8L]/)) {
      rest = substr(s, i + 2)
      d = index(rest, "(")
      if (d > 0 && d <= 17) {
        raw = substr(rest, 1, d - 1)
        i += 2 + d
        continue
      }
    }
    if (c == "\"" || c == "'") {
      if (c == "'" && i > 1 && substr(s, i - 1, 1) ~ /[0-9A-Fa-f]/ && substr(s, i + 1, 1) ~ /[0-9A-Fa-f]/) { i++; continue }
      i++
      while (i <= n) {
        if (substr(s, i, 1) == "\\") { i += 2; continue }
        if (substr(s, i, 1) == c) break
        i++
      }
      out = out c c
      i++
      continue
    }
    out = out c
    i++
  }
  return out
}
# The name a function head gives: the word before its parameter list ("lambda" for a capture).
function name_of(h,    p, before, w) {
  gsub(/^[ \t]+|[ \t]+$/, "", h)
  sub(/^template[ \t]*<[^{]*>[ \t]*/, "", h)
  p = index(h, "(")
  if (p == 0) return "lambda"
  if (index(h, "operator") > 0 && index(h, "operator") < p) {
    before = substr(h, 1, index(h, "operator") + 7)
    w = substr(h, index(h, "operator") + 8, p - index(h, "operator") - 8)
    if (w == "" && substr(h, p, 2) == "()") w = "()"
    if (match(before, /[A-Za-z_~][A-Za-z0-9_:~]*$/)) return substr(before, RSTART, RLENGTH) w
  }
  before = substr(h, 1, p - 1)
  sub(/[ \t]+$/, "", before)
  if (before ~ /\]$/) return "lambda"
  if (match(before, /[A-Za-z_~][A-Za-z0-9_:~<>]*$/)) return substr(before, RSTART, RLENGTH)
  return "lambda"
}
function is_function_head(h,    t) {
  t = h
  gsub(/[ \t]+/, " ", t)
  sub(/^ /, "", t)
  sub(/ $/, "", t)
  if (t ~ /(^|[^A-Za-z0-9_])(namespace|class|struct|union|enum)([^A-Za-z0-9_]|$)/ && t !~ /\)/) return 0
  if (t ~ /^extern ""$/) return 0
  if (t ~ /(^|[^A-Za-z0-9_])(if|for|while|switch|catch|else|do|try)$/) return 0
  if (t ~ /\]$/) return 1
  if (t ~ /\)( ?(const|noexcept|override|final|mutable|volatile|&|&&|throw\(\)))*$/) return 1
  if (t ~ /\)( ?(const|noexcept|override|final|mutable))* ?-> ?[A-Za-z_:<>,*& 0-9]+$/) return 1
  # a constructor's initialiser list: ") : member_(...), base(...)" or "{...}"
  if (t ~ /\)( ?noexcept)? ?: ?[A-Za-z_][A-Za-z0-9_:<>]*[({]/ && t ~ /[)}]$/) return 1
  return 0
}
FNR == 1 { reset_file() }
{
  line = $0
  if (pp) { pp = (line ~ /\\$/); next }
  if (!incomment && raw == "" && line ~ /^[ \t]*#/) { pp = (line ~ /\\$/); next }
  s = strip(line)
  if (s !~ /[{};]/) {
    if (!fdepth && s ~ /[^ \t]/) { if (hline == 0) hline = FNR; head = head " " s }
    next
  }
  n = length(s)
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (c == "{") {
      depth++
      if (!fdepth) {
        if (is_function_head(head)) {
          fdepth = depth; fstart = hline ? hline : FNR; fname = name_of(head)
        }
        head = ""; hline = 0
      }
    } else if (c == "}") {
      if (fdepth && depth == fdepth) {
        len = FNR - fstart + 1
        if (len > max) printf "%s:%d: %s is %d lines (over %d: split it)\n", FILENAME, fstart, fname, len, max
        fdepth = 0
      }
      depth--
      if (!fdepth) { head = ""; hline = 0 }
    } else if (c == ";") {
      if (!fdepth) { head = ""; hline = 0 }
    } else if (!fdepth) {
      if (c ~ /[^ \t]/ && hline == 0) hline = FNR
      head = head c
    }
  }
  if (!fdepth) head = head " "
}
