import Foundation
import Testing
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintCommands
import ModelLintGather

/// Core Data's entity version hashes, reproduced from the model XML (docs/core-data.md).
@Suite struct CoreDataHashTests {
    /// Core Data orders names as `NSString compare:` does, by UTF-16 code unit: beyond U+FFFF that differs from
    /// scalar (and UTF-8) order, which the fast path must not be used for.
    @Test func testNamesAreOrderedByUTF16CodeUnits() {
        let names = [
            "", "a", "ab", "b", "B", "Z", "_x", "a\u{0}", "\u{E9}", "e\u{301}", "\u{FF21}", "\u{1F600}", "a\u{1F600}",
            "a\u{FF21}", "\u{10000}", "\u{D7FF}", "\u{E000}",
        ]
        for x in names {
            for y in names {
                #expect(
                    CoreDataHash.precedes(x, y) == Array(x.utf16).lexicographicallyPrecedes(Array(y.utf16)),
                    "\(x.debugDescription) < \(y.debugDescription)")
            }
        }
        // The case the fast path would get wrong: U+1F600 is D83D DE00 in UTF-16, before FF21.
        #expect(CoreDataHash.precedes("\u{1F600}", "\u{FF21}"))
    }

    @Test func testSHA1AndGitBlobIDKnownAnswers() {
        // FIPS 180-4 examples.
        for (text, expected) in [
            ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"), ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
            ),
            (String(repeating: "a", count: 1_000_000), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
        ] {
            #expect(Hex.encode(SHA1.digest(Array(text.utf8))) == expected, Comment(rawValue: String(text.prefix(10))))
        }
        // Git's ids of the empty blob and of "hello world\n" (SHA-1), and of the empty blob in a SHA-256 repository.
        #expect(GitBlobID.of([], like: String(repeating: "0", count: 40)) == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
        #expect(
            GitBlobID.of(Array("hello world\n".utf8), like: String(repeating: "0", count: 40))
                == "3b18e512dba79e4c8300dd08aeb37f8e728b8dad")
        #expect(
            GitBlobID.of([], like: String(repeating: "0", count: 64))
                == "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813")
        #expect(GitBlobID.of([], like: "e69de29") == nil)
    }

    @Test func testSHA256AndSHA512KnownAnswers() {
        // FIPS 180-4 examples.
        #expect(
            Hex.encode(SHA256.digest(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Hex.encode(SHA256.digest([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Hex.encode(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            Hex.encode(SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(
            Hex.encode(SHA512.digest(Array("abc".utf8)))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        )
        #expect(
            Hex.encode(SHA512.digest([UInt8]()))
                == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        )
        // Every padding case (one block or two, the length at each position): the digests of 0...129 bytes
        // (0, 1, 2, ...), hashed together, as Python's hashlib computes them.
        let digests = (0..<130).flatMap { n in SHA256.digest((0..<n).map { UInt8($0 & 0xFF) }) }
        #expect(
            Hex.encode(SHA256.digest(digests)) == "105812602bb337abca31d9f6bf3a57a3907500005fad7c01e1e1140aa77e4499")
        // Fed in pieces of every size: the same as in one.
        let message = (0..<300).map { UInt8($0 & 0xFF) }
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 299] {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == SHA256.digest(message), "split at \(split)")
        }
    }

    /// Every entity hash of both CoreDataPlus bundles equals what Xcode wrote into the compiled `VersionInfo.plist`,
    /// and every model checksum equals `NSManagedObjectModel_VersionChecksums`.
    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is not present"))
    func testEveryCoreDataPlusHashEqualsXcodes() throws {
        let root = try #require(corpusRoot).appendingPathComponent("alemar11__CoreDataPlus/Tests/Resources")
        var entityHashes = 0
        var checksums = 0
        for (bundle, momd) in [
            ("SampleModel/SampleModel.xcdatamodeld", "SampleModel/Fixtures/SampleModel.momd"),
            ("SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3/Fixtures/SampleModel3.momd"),
        ] {
            let info = try #require(
                try PropertyListSerialization.propertyList(
                    from: Data(contentsOf: root.appendingPathComponent(momd + "/VersionInfo.plist")), format: nil)
                    as? [String: Any])
            let expected = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
            let loaded = BundleLoader.load(bundleURL: root.appendingPathComponent(bundle), displayPath: bundle)
            #expect(Set(expected.keys) == Set(loaded.versions.map(\.name)))
            for version in loaded.versions {
                let hashes = try #require(version.model).versionHashes
                let xcode = try #require(expected[version.name])
                #expect(Set(hashes.entities.keys) == Set(xcode.keys), Comment(rawValue: version.name))
                for (entity, hash) in xcode {
                    #expect(hashes.base64(entity) == hash.base64EncodedString(), "\(version.name).\(entity)")
                    entityHashes += 1
                }
                if let checksum = (info["NSManagedObjectModel_VersionChecksums"] as? [String: String])?[version.name] {
                    #expect(hashes.versionChecksum == checksum, Comment(rawValue: version.name))
                    checksums += 1
                }
            }
        }
        #expect(entityHashes == 18)
        #expect(checksums == 3)
    }

    /// A hand-made model covering every attribute type, inheritance with an abstract parent, modifiers on an
    /// entity and a property, transient, derived, external storage, preserveAfterDeletion, ordered to-many with
    /// counts, a self-inverse to-many, a relationship without inverse and two uniqueness constraints. Expected
    /// values: `Scripts/reference-hashes.py` (Python's hashlib and ElementTree, written from docs/core-data.md
    /// "The hashes" alone, sharing no code with modellint; it also reproduces Xcode's hashes of the CoreDataPlus models).
    @Test func testHandMadeFixtureMatchesTheIndependentImplementation() throws {
        let bundle = repositoryRoot.appendingPathComponent("Fixtures/Hashes/Coverage.xcdatamodeld")
        let model = try #require(BundleLoader.load(bundleURL: bundle, displayPath: "C").versions.first?.model)
        let hashes = model.versionHashes
        #expect(hashes.orderedNames == ["Base", "Item", "Owner", "Pet"])
        #expect(hashes.base64("Base") == "uxQ+NJnGVhoyJwT2LPuYRsNAcndml1mo+vKn65w0OF4=")
        #expect(hashes.base64("Item") == "g3DaznWChnLsENk1wqjw1bdAMD8HWrfDMiOuPzBWWXs=")
        #expect(hashes.base64("Owner") == "C2apFGEAG79byq3XbPUGd8MMjSfcI9RYVmaEkVLXUao=")
        #expect(hashes.base64("Pet") == "aCQOxVxSvanfiYArzG4PM6WNxjTWPncfY5kBf1wBp68=")
        #expect(hashes.versionChecksum == "jX+XrQyz/cBwk19SyJ5bvQQQ31icGekJwLjPdchFRYo=")
        #expect(
            hashes.storeDigest
                == "/Th3IgjC7EBCXHwXmQZWcAycHCHhygoDqPSShgN6CNT2XLK/oVKoSYRX6qIzVoVEeiMvr5uSn27NUkMHUtJbfw==")
    }

    /// The cache across versions gives exactly what hashing each version alone gives, on every bundle.
    @Test func testHashesFromTheCacheEqualHashingEachVersionAlone() throws {
        var compared = 0
        for bundle in fixtureAndCorpusBundles() {
            let versions = BundleLoader.load(bundleURL: bundle, displayPath: "b").versions
            // Large bundles: every versions.count / 10th version (the rest hash from the same cache).
            let step = max(1, versions.count / 10)
            for version in stride(from: 0, to: versions.count, by: step).map({ versions[$0] }) {
                guard let model = version.model,
                    let data = try? FileReader.read(
                        bundle.appendingPathComponent(version.name + ".xcdatamodel/contents").path,
                        limit: FileReader.Limit.contents),
                    case .model(let alone) = ContentsParser.parse(data: data, path: "alone")
                else { continue }
                #expect(model.versionHashes == alone.versionHashes, "\(bundle.lastPathComponent) \(version.name)")
                compared += 1
            }
        }
        #expect(compared > 20)
    }

    /// A lock record made with the fingerprints a bundle's versions share (`FingerprintMemo`) is the record each
    /// version made alone gives, on every version of every fixture and corpus bundle, through one memo per bundle
    /// as a check shares it.
    @Test func testLockRecordsThroughTheMemoEqualEachVersionAlone() throws {
        var compared = 0
        for bundle in fixtureAndCorpusBundles() {
            let memo = FingerprintMemo()
            for (index, version) in BundleLoader.load(bundleURL: bundle, displayPath: "b").versions.enumerated() {
                guard let model = version.model else { continue }
                #expect(
                    VersionDigest(model: model, memo: memo) == VersionDigest(model: model),
                    "\(bundle.lastPathComponent) \(version.name)")
                // Format 1 (old lock files) on every fifth version: its schema digest is slow and memo-free.
                if index % 5 == 0 {
                    #expect(
                        VersionDigest.legacy(model: model, memo: memo) == VersionDigest.legacy(model: model),
                        "\(bundle.lastPathComponent) \(version.name)")
                }
                compared += 1
            }
        }
        #expect(compared > 20)
    }

    /// The memo keys an entity by its own box and every property's: a copy that shares the entity's box but holds
    /// other properties is fingerprinted afresh.
    @Test func testTheMemoTellsAnEntityWithOtherPropertiesApart() throws {
        let xml = """
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" representedClassName="Item">
                    <attribute name="a" optional="YES" attributeType="String"/>
                    <attribute name="b" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                </entity>
            </model>
            """
        guard case .model(let model) = ContentsParser.parse(data: Data(xml.utf8), path: "m") else {
            Issue.record("the model did not parse")
            return
        }
        var fewer = model.entities[0]
        fewer.properties.removeLast()
        let memo = FingerprintMemo()
        #expect(
            memo.entityContent(model.entities[0], formatOne: false).text == Fingerprint.entityContent(model.entities[0])
        )
        #expect(memo.entityContent(fewer, formatOne: false).text == Fingerprint.entityContent(fewer))
        #expect(Fingerprint.entityContent(fewer) != Fingerprint.entityContent(model.entities[0]))
    }
}
