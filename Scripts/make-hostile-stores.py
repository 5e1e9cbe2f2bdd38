#!/usr/bin/env python3
"""Writes Fixtures/Stores/Hostile: stores a pull request could add, each built to make a reader do work out of
proportion to its size. SQLite writes each store; the script then patches the bytes the attack needs.
Run from the repository root; the outputs are committed and read by StructuralInputTests.

- CellFan.sqlite: Z_METADATA's leaf page lists one cell 1,500 times; the cell's payload runs through a 5-page
  overflow chain (1,500 x 20 KB read from a 28 KB file).
- InflatesFar.sqlite: Z_MODELCACHE holds 60 KB of raw DEFLATE that inflates to 61 MB.
- SharedProperties.sqlite: Z_MODELCACHE holds a compiled model whose 400 entities all share one 400-property
  dictionary (160,000 properties from a few kilobytes).
- LogForgery.sqlite: its metadata's NSStoreType and version identifiers hold line breaks, ESC, BEL and workflow
  commands behind Unicode whitespace (U+3000, U+00A0), for `store`'s report.
- WALUTF16.sqlite + -wal: written UTF-16le; every page lives in the WAL, whose page 1 says UTF-16le, while the
  main file's header (as SQLite left it) leaves the encoding unset.
"""
import os, plistlib, shutil, sqlite3, struct, tempfile, zlib

out = "Fixtures/Stores/Hostile"
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp()

def metadata():
    plist = {"NSStoreModelVersionHashes": {"Item": b"\x01" * 32}, "NSStoreModelVersionIdentifiers": [""],
             "NSPersistenceFrameworkVersion": 1344, "NSStoreType": "SQLite", "NSStoreUUID": "00000000-0000-4000-8000-000000000021"}
    return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY)

def fresh(name, page_size=4096):
    path = os.path.join(out, name)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA page_size={page_size}")
    return path, db

def deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()

# CellFan: payload P = M + 5 * (U - 4) with U = 4096, M = 489, so the local part is exactly M bytes.
path, db = fresh("CellFan.sqlite")
db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
payload = 489 + 5 * 4092
blob_length = payload - 6 - 36  # record header (6 bytes) and the 36-character UUID
db.execute("INSERT INTO Z_METADATA VALUES (1, '00000000-0000-4000-8000-000000000021', ?)", (b"\x00" * blob_length,))
root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'Z_METADATA'").fetchone()[0]
db.close()
data = bytearray(open(path, "rb").read())
base = (root - 1) * 4096
assert data[base] == 0x0D and struct.unpack(">H", data[base + 3:base + 5])[0] == 1
cell = struct.unpack(">H", data[base + 8:base + 10])[0]
fan = 1500
assert 8 + 2 * fan <= cell
data[base + 3:base + 5] = struct.pack(">H", fan)
for i in range(fan):
    data[base + 8 + 2 * i:base + 10 + 2 * i] = struct.pack(">H", cell)
open(path, "wb").write(data)

# InflatesFar: a model cache of zeros.
path, db = fresh("InflatesFar.sqlite")
db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
db.execute("INSERT INTO Z_METADATA VALUES (1, '00000000-0000-4000-8000-000000000021', ?)", (metadata(),))
db.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
db.execute("INSERT INTO Z_MODELCACHE VALUES (?)", (deflate(b"\x00" * (61 << 20)),))
db.close()

# SharedProperties: one properties dictionary shared by every entity (plistlib writes a shared object once).
classes = {}
objects = ["$null"]
def add(obj):
    objects.append(obj)
    return plistlib.UID(len(objects) - 1)
def cls(name):
    if name not in classes:
        classes[name] = add({"$classname": name, "$classes": [name, "NSObject"]})
    return classes[name]
names = [f"p{i}" for i in range(400)]
props = [add({"$class": cls("NSAttributeDescription"), "NSPropertyName": n, "NSAttributeType": 700, "NSIsOptional": True}) for n in names]
shared = add({"$class": cls("NSDictionary"), "NS.keys": [add(n) for n in names], "NS.objects": props})
entity_names = [f"E{i}" for i in range(400)]
entities = [add({"$class": cls("NSEntityDescription"), "NSEntityName": n, "NSProperties": shared}) for n in entity_names]
edict = add({"$class": cls("NSDictionary"), "NS.keys": [add(n) for n in entity_names], "NS.objects": entities})
model = add({"$class": cls("NSManagedObjectModel"), "NSEntities": edict})
archive = plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": model}, "$objects": objects}, fmt=plistlib.FMT_BINARY)
path, db = fresh("SharedProperties.sqlite")
db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
db.execute("INSERT INTO Z_METADATA VALUES (1, '00000000-0000-4000-8000-000000000021', ?)", (metadata(),))
db.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
db.execute("INSERT INTO Z_MODELCACHE VALUES (?)", (deflate(archive),))
db.close()

# LogForgery: names a pull request can write into a CI log through `store`.
path, db = fresh("LogForgery.sqlite")
forged = {"NSStoreModelVersionHashes": {"Item": b"\x01" * 32},
          "NSStoreModelVersionIdentifiers": ["\u3000::stop-commands::x", "\u00a0::error::spoofed"],
          "NSPersistenceFrameworkVersion": 1344, "NSStoreType": "SQLite\n::stop-commands::y\x1b[2J\x07##[add-mask]z",
          "NSStoreUUID": "\u2003::warning::uuid"}
db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
db.execute("INSERT INTO Z_METADATA VALUES (1, NULL, ?)", (plistlib.dumps(forged, fmt=plistlib.FMT_BINARY),))
db.close()

# WALUTF16: written UTF-16le in WAL mode, nothing checkpointed after the tables.
path = os.path.join(work, "WALUTF16.sqlite")
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA encoding='UTF-16le'")
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
db.execute("INSERT INTO Z_METADATA VALUES (1, '00000000-0000-4000-8000-000000000021', ?)", (metadata(),))
for name in ("WALUTF16.sqlite", "WALUTF16.sqlite-wal"):
    shutil.copy(os.path.join(work, name), os.path.join(out, name))
db.close()
main = open(os.path.join(out, "WALUTF16.sqlite"), "rb").read()
assert struct.unpack(">I", main[56:60])[0] == 0  # SQLite left the main file's encoding unset
shutil.rmtree(work)
print("wrote", sorted(os.listdir(out)))
