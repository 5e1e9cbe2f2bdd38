#!/usr/bin/env python3
"""Writes Fixtures/Stores: SQLite stores shaped like Core Data's (Z_METADATA with a binary-plist Z_PLIST), made
with Python's sqlite3 so the reader is tested against SQLite itself. The entity hashes come from
Scripts/reference-hashes.py (independent of modellint). Run from the repository root; the outputs are committed.

- WALOnly.sqlite + WALOnly.sqlite-wal: the database file holds no table at all; Z_METADATA (written by
  Near 19) exists only in the WAL's committed frames, as in a WAL-mode store whose last checkpoint predates it.
- Near20Large.sqlite: rollback journal, written by Near 20, with a Z_PLIST large enough to need overflow pages
  and 300 padding rows so the tables are interior b-trees.
"""
import os, plistlib, shutil, sqlite3, subprocess, sys, tempfile, base64

def hashes(version, bundle="Fixtures/Near.xcdatamodeld"):
    out = subprocess.run([sys.executable, "Scripts/reference-hashes.py", f"{bundle}/{version}.xcdatamodel/contents"],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    entities = {}
    for line in out:
        parts = line.split()
        if len(parts) == 2 and parts[0] not in ("versionChecksum", "storeDigest"):
            entities[parts[0]] = base64.b64decode(parts[1])
    return entities

def metadata(version, padding=0, bundle="Fixtures/Near.xcdatamodeld"):
    plist = {"NSStoreModelVersionHashes": hashes(version, bundle), "NSStoreModelVersionIdentifiers": [version],
             "NSPersistenceFrameworkVersion": 1344, "NSStoreType": "SQLite", "NSStoreUUID": "00000000-0000-4000-8000-000000000019"}
    if padding:
        plist["Padding"] = "x" * padding
    return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY)

out = "Fixtures/Stores"
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp()

# WAL only: create the file in WAL mode with nothing in it, checkpoint, then write the metadata without checkpointing.
path = os.path.join(work, "WALOnly.sqlite")
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
db.execute("INSERT INTO Z_METADATA VALUES (1, '00000000-0000-4000-8000-000000000019', ?)", (metadata("Near 19"),))
for name in ("WALOnly.sqlite", "WALOnly.sqlite-wal"):
    shutil.copy(os.path.join(work, name), os.path.join(out, name))
db.close()

# Large: overflow pages and interior pages.
path = os.path.join(out, "Near20Large.sqlite")
if os.path.exists(path):
    os.remove(path)
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA page_size=1024")
db.execute("CREATE TABLE ZPADDING (Z_PK INTEGER PRIMARY KEY, ZTEXT VARCHAR)")
for i in range(300):
    db.execute("INSERT INTO ZPADDING VALUES (?, ?)", (i, "padding row %d " % i * 3))
db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
db.execute("INSERT INTO Z_METADATA VALUES (1, '00000000-0000-4000-8000-000000000020', ?)", (metadata("Near 20", padding=5000),))
db.close()
shutil.rmtree(work)
print("wrote", sorted(os.listdir(out)))

def plain_store(path, version, bundle):
    """A rollback-journal store whose Z_METADATA says `version` of `bundle` wrote it."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
    db.execute("INSERT INTO Z_METADATA VALUES (1, '00000000-0000-4000-8000-000000000001', ?)",
               (metadata(version, bundle=bundle),))
    db.close()
    print("wrote", path)

# Written by Library 1, before Library 2 added the attribute that Library 3 renames.
plain_store("Fixtures/Stores/RenamedLater/Library1.sqlite", "Library 1", "Fixtures/Stores/RenamedLater/Library.xcdatamodeld")
# Written by Store, the source of the mapping model StoreToStore2.
os.makedirs("Fixtures/Mapped/Stores", exist_ok=True)
plain_store("Fixtures/Mapped/Stores/Store1.sqlite", "Store", "Fixtures/Mapped/Store.xcdatamodeld")

# Written by a model the app merged from two bundles: Near 20's entities and Library 3's.
path = "Fixtures/Stores/Merged.sqlite"
if os.path.exists(path):
    os.remove(path)
merged = dict(hashes("Near 20"))
merged.update(hashes("Library 3", "Fixtures/Stores/RenamedLater/Library.xcdatamodeld"))
db = sqlite3.connect(path, isolation_level=None)
db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
plist = {"NSStoreModelVersionHashes": merged, "NSStoreModelVersionIdentifiers": [], "NSPersistenceFrameworkVersion": 1344,
         "NSStoreType": "SQLite", "NSStoreUUID": "00000000-0000-4000-8000-000000000002"}
db.execute("INSERT INTO Z_METADATA VALUES (1, '00000000-0000-4000-8000-000000000002', ?)",
           (plistlib.dumps(plist, fmt=plistlib.FMT_BINARY),))
db.close()
print("wrote", path)
