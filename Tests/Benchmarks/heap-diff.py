"""What grew between two V8 heap snapshots (.heapsnapshot, as DevTools or HeapProfiler.takeHeapSnapshot write them).

    python3 Tests/Benchmarks/heap-diff.py BEFORE.heapsnapshot AFTER.heapsnapshot [TOP]

Sums count and self size by node kind (object, closure, string, code, native...) and by kind and class (the
constructor for objects, the V8 or Blink class for the rest), and counts the objects held by the DevTools
console's handles (what a DevTools client such as Selenium's execute_script leaves in the page). Used by
kiosk-soak.py.
"""
import collections
import json
import sys

STRINGS = {"string", "concatenated string", "sliced string", "number"}


def summarize(snapshot):
    meta = snapshot["snapshot"]["meta"]
    fields, edge_fields = meta["node_fields"], meta["edge_fields"]
    kinds, edge_kinds = meta["node_types"][0], meta["edge_types"][0]
    nodes, edges, strings = snapshot["nodes"], snapshot["edges"], snapshot["strings"]
    nf, ef = len(fields), len(edge_fields)
    i_kind, i_name, i_size, i_edges = (fields.index(f) for f in ["type", "name", "self_size", "edge_count"])
    e_kind, e_name = edge_fields.index("type"), edge_fields.index("name_or_index")
    kind_size, kind_count = collections.Counter(), collections.Counter()
    class_size, class_count = collections.Counter(), collections.Counter()
    console = 0
    edge = 0
    for i in range(0, len(nodes), nf):
        kind = kinds[nodes[i + i_kind]]
        name = kind if kind in STRINGS else f"{kind}:{strings[nodes[i + i_name]][:90]}"
        size = nodes[i + i_size]
        kind_size[kind] += size
        kind_count[kind] += 1
        class_size[name] += size
        class_count[name] += 1
        for _ in range(nodes[i + i_edges]):
            if edge_kinds[edges[edge + e_kind]] == "internal" and strings[edges[edge + e_name]].endswith("/ DevTools console"):
                console += 1
            edge += ef
    return {"kind_size": kind_size, "kind_count": kind_count, "class_size": class_size, "class_count": class_count,
            "console": console}


def report(a, b, top=20):
    total_a, total_b = sum(a["kind_size"].values()), sum(b["kind_size"].values())
    print(f"  self size in all: {total_a} -> {total_b} B ({total_b - total_a:+}); held by the DevTools console:"
          f" {a['console']} -> {b['console']}")
    for kind in sorted(set(a["kind_size"]) | set(b["kind_size"]), key=lambda k: a["kind_size"][k] - b["kind_size"][k]):
        print(f"  {kind:20} count {a['kind_count'][kind]:6} -> {b['kind_count'][kind]:6}"
              f" ({b['kind_count'][kind] - a['kind_count'][kind]:+5})  size {a['kind_size'][kind]:8} -> {b['kind_size'][kind]:8}"
              f" ({b['kind_size'][kind] - a['kind_size'][kind]:+7})")
    names = sorted(set(a["class_size"]) | set(b["class_size"]), key=lambda n: a["class_size"][n] - b["class_size"][n])
    print(f"  the {top} classes that grew most:")
    for name in names[:top]:
        print(f"    {b['class_size'][name] - a['class_size'][name]:+7} B  count {a['class_count'][name]} -> {b['class_count'][name]}  {name}")


if __name__ == "__main__":
    before, after = (summarize(json.load(open(path))) for path in sys.argv[1:3])
    report(before, after, int(sys.argv[3]) if len(sys.argv) > 3 else 20)
