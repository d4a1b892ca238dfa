"""How often symbols occur in real maths: the counts behind the handwritten look-alike
weights (worker/engine/math/lookalikes.ts MATHS_FREQUENCY), shared by the pen-strokes classifier
and the handwriting picture read.

Counts the tokens (a letter, a digit, a sign, a control word) of every math-mode span ($...$,
$$...$$, \\[...\\], equation/align/gather/multline) in the .tex sources under a TeX Live tree,
leaving out amsmath's held-out documents (testmath, amsldoc, subeqn) and text inside \\text{},
\\mathrm{}, \\operatorname{}, \\label{}, \\ref{}, \\mbox{}.

Usage: /usr/bin/python3 models/training/maths-symbol-frequency.py [/usr/share/texlive] [token ...]
"""
import collections
import glob
import re
import sys

HELD_OUT = re.compile(r"testmath|amsldoc|subeqn")
MATH = re.compile(r"(?<!\\)\$\$?(.+?)(?<!\\)\$\$?|\\\[(.+?)\\\]|\\begin\{(equation|align|gather|multline)\*?\}(.+?)\\end\{\3", re.S)
TEXT = re.compile(r"\\(text|mathrm|operatorname|label|ref|mbox|textrm|texttt|verb)\s*\{[^}]*\}")
TOKEN = re.compile(r"\\[A-Za-z]+|[A-Za-z0-9]|[^\sA-Za-z0-9{}^_&~\\]")
LONGEST_SPAN = 400  # longer "math" spans are unbalanced dollars in prose


def main() -> None:
    root = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/texlive"
    wanted = sys.argv[2:] or ["1", "l", "L", "I", "[", "\\iota", "0", "O", "o", "x", "\\chi"]
    files = [f for f in glob.glob(f"{root}/**/*.tex", recursive=True) if not HELD_OUT.search(f)]
    counts: collections.Counter[str] = collections.Counter()
    for path in files:
        with open(path, errors="ignore") as f:
            source = re.sub(r"(?<!\\)%.*", "", f.read())
        for m in MATH.finditer(source):
            body = m.group(1) or m.group(2) or m.group(4) or ""
            if len(body) <= LONGEST_SPAN:
                counts.update(TOKEN.findall(TEXT.sub("", body)))
    print(f"{len(files)} files, {sum(counts.values())} tokens")
    for token in wanted:
        print(f"{token}\t{counts[token]}")


if __name__ == "__main__":
    main()
