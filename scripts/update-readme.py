#!/usr/bin/env python3
"""Copy the generated results/<id>/report.md files into README.md between markers
<!-- report:<id> --> and <!-- /report:<id> -->, so the README quotes measured numbers only."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
readme = root / "README.md"
text = readme.read_text()
for m in re.finditer(r"<!-- report:([\w-]+) -->", text):
    ident = m.group(1)
    report = root / "results" / ident / "report.md"
    if not report.exists():
        sys.exit(f"{report} missing: run `sudoku-lab reproduce {ident}` first")
    body = report.read_text().strip()
    # Images and links relative to the results folder, made relative to the README.
    body = re.sub(
        r"(!?\[[^\]]*\]\()(?!https?:|/|#|results/)([^)\s]+)\)",
        lambda m: f"{m.group(1)}results/{ident}/{m.group(2)})",
        body,
    )
    # The report's headings one level below the README section that quotes it.
    body = re.sub(r"^(#+) ", lambda m: "#" + m.group(1) + " " if len(m.group(1)) < 6 else m.group(0), body, flags=re.M)
    text = re.sub(
        rf"<!-- report:{ident} -->.*?<!-- /report:{ident} -->",
        lambda _: f"<!-- report:{ident} -->\n{body}\n<!-- /report:{ident} -->",
        text,
        flags=re.S,
    )
readme.write_text(text)
