#!/usr/bin/python3
"""Makes a clipped OpenStreetMap extract whole for tilemaker: keeps every node, the ways with at
least two of their nodes present (without the missing ones), and the relations with their
members that are present (dropped when none is), and writes the input's bounding box into the
output's header. tilemaker 2.2 aborts on ways and relations that refer to missing objects.

    Scripts/osm-complete.py IN.osm.pbf OUT.osm.pbf
"""
import sys

import osmium

source, destination = sys.argv[1], sys.argv[2]
reader = osmium.io.Reader(source)
box = reader.header().box()
reader.close()


class Nodes(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def node(self, n):
        self.ids.add(n.id)


class Ways(osmium.SimpleHandler):
    def __init__(self, nodes):
        super().__init__()
        self.nodes = nodes
        self.ids = set()

    def way(self, w):
        if sum(1 for r in w.nodes if r.ref in self.nodes) >= 2:
            self.ids.add(w.id)


nodes = Nodes()
nodes.apply_file(source)
ways = Ways(nodes.ids)
ways.apply_file(source)

header = osmium.io.Header()
header.add_box(box)
writer = osmium.SimpleWriter(destination, 4 << 20, header)


class Write(osmium.SimpleHandler):
    def node(self, n):
        writer.add_node(n)

    def way(self, w):
        if w.id in ways.ids:
            writer.add_way(w.replace(nodes=[r.ref for r in w.nodes if r.ref in nodes.ids]))

    def relation(self, r):
        members = [
            (m.type, m.ref, m.role)
            for m in r.members
            if (m.type == "n" and m.ref in nodes.ids) or (m.type == "w" and m.ref in ways.ids)
        ]
        if members:
            writer.add_relation(r.replace(members=members))


Write().apply_file(source)
writer.close()
print(f"{box.bottom_left.lon},{box.bottom_left.lat},{box.top_right.lon},{box.top_right.lat}")
