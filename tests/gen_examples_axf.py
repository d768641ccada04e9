#!/usr/bin/env python3
"""Regenerates the example list of tests/examples_axf.rs from spec/examples/axf/*.yaml."""
import glob, os, re
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ids = []
for f in glob.glob(os.path.join(root, 'spec/examples/axf/*.yaml')):
    n = os.path.basename(f)[:-5]
    if n == 'items':
        continue
    ids.append(n)
def key(n):
    m = re.match(r'([A-Za-z-]+?)(\d+)?$', n)
    return (m.group(1), int(m.group(2) or 0)) if m else (n, 0)
ids.sort(key=key)
lines = ''.join(f'    axf_{re.sub(r"[^a-z0-9]", "_", n.lower())} => "axf/{n}",\n' for n in ids)
p = os.path.join(root, 'tests/examples_axf.rs')
s = open(p).read()
start = s.index('examples! {\n') + len('examples! {\n')
end = s.index('}\n', start)
open(p, 'w').write(s[:start] + lines + s[end:])
print(len(ids), 'examples')
