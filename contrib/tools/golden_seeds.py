#!/usr/bin/env python3
"""Make the parser's fuzzing seeds from its golden file.

Usage: golden_seeds.py tests/data/parser/orders.golden tests/fuzz/seeds/parser

Every distinct input of the golden file becomes one seed: a context byte
(see tests/fuzz/fuzz_parser.c: the board, the sender, the variant orders),
chosen from the file's @ directives as closely as the fuzz target's four
boards allow, followed by the input with its escapes undone. The seeds are
named by a hash of their bytes, so running this again only adds files for
new cases. The directory's old seeds are kept: libFuzzer may have found
useful ones.
"""
import hashlib
import os
import sys

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


def unescape(s):
    """The golden file's escapes: \\| \\\\ \\t \\r \\xHH."""
    out = bytearray()
    raw = s.encode("utf-8")
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == 0x5C and i + 1 < len(raw):
            n = chr(raw[i + 1])
            if n == "t":
                out.append(9)
                i += 2
            elif n == "r":
                out.append(13)
                i += 2
            elif n == "x" and i + 3 < len(raw):
                out.append(int(raw[i + 2:i + 4].decode(), 16))
                i += 4
            else:
                out.append(raw[i + 1])
                i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def split_input(line):
    """The INPUT field: up to the first unescaped bar."""
    i = 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] == "|":
            return line[:i].strip()
        i += 1
    return line.strip()


def main():
    golden, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    board, phase, power, variant, held = 0, "movement", 7, 0, 0
    seen = set()
    written = 0
    with open(golden, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            if s.startswith("@"):
                words = s[1:].split()
                key, args = words[0], words[1:]
                if key == "board":
                    board = {"start": 0, "empty": 0, "none": 3}.get(args[0], 0)
                    phase = "movement"
                elif key == "phase":
                    phase = args[-1].lower()
                elif key == "power":
                    power = POWERS.index(args[0]) if args[0] in POWERS else 7
                    held = 0
                elif key == "delegation":
                    power = POWERS.index(args[0]) if args[0] in POWERS else 7
                    held = 1
                elif key == "option":
                    variant = 0 if args[-1] in ("no", "off", "0", "false") else 1
                continue
            ctx = board
            if board != 3:
                ctx = {"movement": 0, "retreat": 1, "adjustment": 2}.get(phase, 0)
            data = bytes([ctx | power << 2 | variant << 5 | held << 6]) + \
                unescape(split_input(line))
            if data in seen:
                continue
            seen.add(data)
            name = os.path.join(outdir, "golden-" + hashlib.sha1(data).hexdigest()[:16])
            if not os.path.exists(name):
                with open(name, "wb") as out:
                    out.write(data)
                written += 1
    print(f"{len(seen)} seeds, {written} new, in {outdir}")


if __name__ == "__main__":
    main()
