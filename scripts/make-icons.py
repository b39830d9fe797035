#!/usr/bin/env python3
"""Draws the home-screen icons (Public/icons/grain-192.png, grain-512.png) from the design of grain.svg: the
story ring's gradient around a filled dot, on a light square with the art inside the maskable safe zone (the
middle 80%), so launchers that crop to a circle or a squircle keep all of it. Run once; the PNGs are committed."""

import sys

from PIL import Image, ImageDraw

STOPS = [(0xC9, 0x7C, 0xF8), (0x85, 0xA1, 0xFF), (0x5B, 0xF0, 0xD6)]


def gradient(t):
    if t <= 0.5:
        a, b, u = STOPS[0], STOPS[1], t / 0.5
    else:
        a, b, u = STOPS[1], STOPS[2], (t - 0.5) / 0.5
    return tuple(round(a[i] + (b[i] - a[i]) * u) for i in range(3))


def icon(size):
    scale = 4  # drawn large and reduced, for smooth edges
    big = size * scale
    image = Image.new("RGB", (big, big), (250, 250, 252))
    ring = Image.new("RGB", (big, big))
    pixels = ring.load()
    for y in range(big):
        for x in range(big):
            pixels[x, y] = gradient((x + y) / (2 * big - 2))
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)
    centre, unit = big / 2, big * 0.8 / 64  # the SVG's 64-unit box in the safe zone
    outer, inner = (28 + 3) * unit, (28 - 3) * unit
    draw.ellipse([centre - outer, centre - outer, centre + outer, centre + outer], fill=255)
    draw.ellipse([centre - inner, centre - inner, centre + inner, centre + inner], fill=0)
    image.paste(ring, mask=mask)
    dot = 18 * unit
    ImageDraw.Draw(image).ellipse([centre - dot, centre - dot, centre + dot, centre + dot], fill=STOPS[1])
    return image.resize((size, size), Image.LANCZOS)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "Public/icons"
    for size in (192, 512):
        icon(size).save(f"{out}/grain-{size}.png", optimize=True)
