/// The Python program that asks Uber's h3 (PyPI `h3`, 4.x) for expected answers. Lines out:
/// `P lat lng res cell` (latLngToCell), `C cell lat lng` (cellToLatLng), `Q cell res parent` (cellToParent).
let oracleScript = #"""
    import math, random, sys
    try:
        import h3
    except ImportError:
        sys.stderr.write("the h3 package (PyPI h3 4.x) is not installed: pip install h3\n")
        sys.exit(3)
    if not h3.__version__.startswith("4."):
        sys.stderr.write("h3 4.x required, found %s\n" % h3.__version__)
        sys.exit(3)

    rng = random.Random(20261201)
    pts = []
    for n in range(100000):
        lat = math.degrees(math.asin(rng.uniform(-1.0, 1.0)))
        pts.append((lat, rng.uniform(-180.0, 180.0), n % 16))

    # Poles: exact and 1e-6..1e-2 degrees away, all the way round.
    for sign in (1.0, -1.0):
        pts += [(sign * 90.0, 0.0, res) for res in range(16)]
        for e in (1e-6, 1e-5, 1e-4, 1e-3, 1e-2):
            for lng in range(-180, 180, 20):
                for res in range(16):
                    pts.append((sign * (90.0 - e), lng + 0.5, res))

    # Antimeridian.
    for lat10 in range(-895, 900, 10):
        for lng in (180.0, -180.0, 179.9999999, -179.9999999, 179.99, -179.99):
            pts.append((lat10 / 10.0, lng, (lat10 // 10) % 16))

    # Icosahedron face edges: along and across the arcs between adjacent face centres.
    faces = [
        (0.803582649718989942, 1.248397419617396099), (1.307747883455638156, 2.536945009877921159),
        (1.054751253523952054, -1.347517358900396623), (0.600191595538186799, -0.450603909469755746),
        (0.491715428198773866, 0.401988202911306943), (0.172745327415618701, 1.678146885280433686),
        (0.605929321571350690, 2.953923329812411617), (0.427370518328979641, -1.888876200336285401),
        (-0.079066118549212831, -0.733429513380867741), (-0.230961644455383637, 0.506495587332349035),
        (0.079066118549212831, 2.408163140208925497), (0.230961644455383637, -2.635097066257444203),
        (-0.172745327415618701, -1.463445768309359553), (-0.605929321571350690, -0.187669323777381622),
        (-0.427370518328979641, 1.252716453253507838), (-0.600191595538186799, 2.690988744120037492),
        (-0.491715428198773866, -2.739604450678486295), (-0.803582649718989942, -1.893195233972397139),
        (-1.307747883455638156, -0.604647643711872080), (-1.054751253523952054, 1.794075294689396615),
    ]
    vec = [(math.cos(a) * math.cos(b), math.cos(a) * math.sin(b), math.sin(a)) for a, b in faces]
    def geo(v):
        n = math.sqrt(sum(c * c for c in v))
        return (math.degrees(math.asin(v[2] / n)), math.degrees(math.atan2(v[1], v[0])))
    dots = sorted(sum(x * y for x, y in zip(vec[a], vec[b])) for a in range(20) for b in range(a + 1, 20))
    for a in range(20):
        for b in range(a + 1, 20):
            if sum(x * y for x, y in zip(vec[a], vec[b])) < dots[-30] - 1e-9:
                continue
            for step in range(41):
                t = 0.3 + 0.4 * step / 40.0
                for off in (0.0, 1e-9, -1e-9, 1e-5, -1e-5):
                    tt = t + off
                    v = [vec[a][i] * (1 - tt) + vec[b][i] * tt for i in range(3)]
                    lat, lng = geo(v)
                    pts.append((lat, lng, (step + a + b) % 16))
                    pts.append((lat, lng, 10))

    # Around the twelve pentagons, at several resolutions.
    for p in h3.get_pentagons(0):
        clat, clng = h3.cell_to_latlng(p)
        for res in (0, 1, 2, 3, 5, 8, 10, 12, 15):
            pts.append((clat, clng, res))
            for scale in (0.05, 0.5, 1.0, 2.0):
                d = scale * 20.0 / (math.sqrt(7) ** res)
                for k in range(12):
                    az = math.radians(30 * k + 7)
                    lat = clat + d * math.cos(az)
                    lng = clng + d * math.sin(az) / max(math.cos(math.radians(clat)), 1e-6)
                    if lat > 90 or lat < -90:
                        continue
                    lng = (lng + 180.0) % 360.0 - 180.0
                    pts.append((lat, lng, res))

    out = []
    cells = []
    for lat, lng, res in pts:
        c = h3.latlng_to_cell(lat, lng, res)
        cells.append(c)
        out.append("P %r %r %d %s" % (lat, lng, res, c))
    for c in cells[::9]:
        lat, lng = h3.cell_to_latlng(c)
        out.append("C %s %r %r" % (c, lat, lng))
    for n, c in enumerate(cells[::7]):
        res = h3.get_resolution(c)
        target = (n * 5) % (res + 1)
        out.append("Q %s %d %s" % (c, target, h3.cell_to_parent(c, target)))
    sys.stdout.write("\n".join(out) + "\n")
    """#
