#!/usr/bin/env python3
"""Core Data's entity version hashes, written from the formula in docs/core-data.md "The hashes" with Python's hashlib
and ElementTree alone: an implementation independent of modellint's Swift code, whose output the tests take as
expected values for the hand-made fixtures (Fixtures/Hashes). Usage: Scripts/reference-hashes.py CONTENTS"""
import base64, hashlib, struct, sys
import xml.etree.ElementTree as ET

CODES = {"Undefined": 0, "Integer 16": 100, "Integer 32": 200, "Integer 64": 300, "Decimal": 400, "Double": 500, "Float": 600,
         "String": 700, "Boolean": 800, "Date": 900, "Binary": 1000, "UUID": 1100, "URI": 1200, "Transformable": 1800,
         "ObjectID": 2000, "Composite": 2100}

def sha(b): return hashlib.sha256(b).digest()
def yes(e, k): return e.get(k) == "YES"

def prop(e):
    b = e.get("name").encode() + struct.pack("<H", (1 if yes(e, "optional") else 0) | ((1 if yes(e, "transient") else 0) << 1))
    if e.get("versionHashModifier") is not None: b += e.get("versionHashModifier").encode()
    return b

def attribute(e):
    if yes(e, "derived"): return sha((e.get("derivationExpression") or "").encode())
    b = sha(prop(e)) + struct.pack("<I", CODES[e.get("attributeType", "Undefined")])
    if yes(e, "allowsExternalBinaryDataStorage"): b += b"\x01"
    if yes(e, "preserveAfterDeletion"): b += b"\x01"
    return sha(b)

def relationship(e, owner):
    b = sha(prop(e)) + (e.get("destinationEntity") or "").encode()
    own_inverse = e.get("inverseName") == e.get("name") and e.get("destinationEntity") == owner
    if e.get("inverseName") is not None and not own_inverse: b += e.get("inverseName").encode()
    b += struct.pack("<I", int(e.get("maxCount", "0")) & 0xFFFFFFFF) + struct.pack("<I", int(e.get("minCount", "0")) & 0xFFFFFFFF)
    if yes(e, "ordered"): b += b"\x01\x00"
    return sha(b)

def utf16(s): return s.encode("utf-16-be")

def main(path):
    model = ET.parse(path).getroot()
    entities = {e.get("name"): e for e in model.findall("entity")}
    done = {}
    def entity(name):
        if name in done: return done[name]
        e = entities[name]
        chain = [e]
        while chain[-1].get("parentEntity"): chain.append(entities[chain[-1].get("parentEntity")])
        props = []
        for owner in reversed(chain):
            for p in owner:
                if p.tag in ("attribute", "relationship") and not yes(p, "transient"):
                    props.append((p.get("name"), attribute(p) if p.tag == "attribute" else relationship(p, owner.get("name"))))
        b = name.encode() + bytes([1 if yes(e, "isAbstract") else 0])
        if e.get("parentEntity"): b += entity(e.get("parentEntity"))
        for _, h in sorted(props, key=lambda x: utf16(x[0])): b += h
        if e.get("versionHashModifier") is not None: b += e.get("versionHashModifier").encode()
        constraints = [".".join(c.get("value") for c in u.findall("constraint")) for u in e.findall("uniquenessConstraints/uniquenessConstraint")]
        for c in sorted(constraints, key=utf16): b += c.encode()
        done[name] = sha(b)
        return done[name]
    names = sorted(entities, key=utf16)
    for n in names: print(n, base64.b64encode(entity(n)).decode())
    print("versionChecksum", base64.b64encode(sha(b"".join(entity(n) for n in names))).decode())
    print("storeDigest", base64.b64encode(hashlib.sha512(b"".join(n.encode() + entity(n) for n in names)).digest()).decode())

main(sys.argv[1])
