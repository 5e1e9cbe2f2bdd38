import Foundation
import Testing
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintCompiled
import ModelLintStores
import ModelLintRules
import ModelLintEngine
import ModelLintProjects
import ModelLintCommands
import ModelLintGather

/// Inputs whose parts reference each other so that a few bytes describe a great deal: every reader does work in proportion to the bytes it was given, and a crafted file is a named error.
@Suite struct StructuralInputTests {
    let temporary = TemporaryDirectories()

    let hostileStores = repositoryRoot.appendingPathComponent("Fixtures/Stores/Hostile")
    let near = repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld")

    /// `{_XCCurrentVersionName: a0}` where each of `levels` arrays holds the next one twice.
    private func doublingGraph(levels: Int) -> [UInt8] {
        var plist = PlistBuilder()
        _ = plist.add(.dictionary([(1, 2)]))
        _ = plist.add(.string("_XCCurrentVersionName"))
        for level in 0..<levels { _ = plist.add(.array([3 + level, 3 + level])) }
        _ = plist.add(.string("Leaf 1.xcdatamodel"))
        return plist.build(top: 0)
    }

    // Case 1: 60 arrays each referencing the next twice is 2^60 paths through 62 objects.
    @Test func testSharedObjectsAreConvertedOnce() throws {
        let bytes = doublingGraph(levels: 60)
        #expect(bytes.count < 600)
        let plist = try #require(PropertyList.parse(Data(bytes)) as? [String: Any])
        // The graph is kept as a graph: both members of every level are the same array.
        var level = try #require(plist["_XCCurrentVersionName"] as? [Any])
        for _ in 0..<59 {
            #expect(level.count == 2)
            level = try #require(level[0] as? [Any])
        }
        #expect((level.first as? String) == "Leaf 1.xcdatamodel")
        let (file, name) = CurrentVersionReader.parse(Data(bytes))
        #expect(file == .unreadable("_XCCurrentVersionName is not a version name"))
        #expect(name == nil)

        // Through check: the bundle's pointer is named unreadable and the run ends.
        let directory = try temporary.make()
        let bundle = try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")])
        try Data(bytes).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let out = modellint(["check", bundle.path, "--format", "json"], in: directory)
        #expect(out.exitCode == 1, Comment(rawValue: out.standardError))
        let found = jsonDiagnostics(out)
        #expect((found.map { "\($0["severity"] ?? "") \($0["ruleId"] ?? "")" }) == ["error missing-current-version"])
        #expect(
            (found.first?["message"] as? String)
                == ".xccurrentversion cannot be used: _XCCurrentVersionName is not a version name; modellint treats Near 1, the last in version order, as current"
        )
    }

    // Case 2: 200,000 offset-table slots all naming one array of 150,000 references (a 1 MB file).
    @Test func testSlotsNamingOneObjectAreParsedOnce() throws {
        var plist = PlistBuilder()
        let fan = 200_000
        _ = plist.add(.dictionary([(1, 2)]))
        _ = plist.add(.string("_XCCurrentVersionName"))
        _ = plist.add(.array(Array(repeating: 3, count: 50_000)))
        let slots = [0, 1] + Array(repeating: 2, count: fan)
        let bytes = plist.build(top: 0, slots: slots)
        #expect(bytes.count < FileReader.Limit.smallFile)
        let table = try BinaryPropertyList(bytes: bytes)
        #expect(table.objects.count == (fan + 2))
        #expect(
            Set(table.objects.indices.map(table.identity)) == [0, 1, 2], "every slot naming the array is the array")
        do {
            _ = try PropertyList.parse(Data(bytes))
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "a property list that contains itself")
        }
        #expect(CurrentVersionReader.parse(Data(bytes)).0 == .unreadable("it is not a property list"))
    }

    // Case 3: entities x properties from a few kilobytes, through the compiled-model reader (a .mom and a store's
    // cached model go through the same reader).
    @Test func testEntitiesSharingPropertiesAreRefused() throws {
        let store = hostileStores.appendingPathComponent("SharedProperties.sqlite")
        let file = try SQLiteFile(path: store.path)
        let table = try #require(try file.table(named: "Z_MODELCACHE"))
        guard case .blob(let compressed)? = table.rows.first?.values.first else {
            Issue.record("no cache blob")
            return
        }
        let archive = try KeyedArchive(bytes: Inflate.decompress(compressed))
        do {
            _ = try CompiledModelReader.model(from: archive, displayPath: "Shared")
            Issue.record("expected an error")
        } catch {
            #expect(
                "\(error)"
                    == "Shared: it references more than \(2 * archive.archived.count + 4096) entities and properties (it holds \(archive.archived.count) objects): refused as crafted"
            )
        }
        // The store still reads (its cached model is an extra): its metadata, no cached model.
        let metadata = try StoreMetadata.read(path: store.path)
        #expect(metadata.cachedModel == nil)
        #expect(metadata.uuid == "00000000-0000-4000-8000-000000000021")

        // The same reader on a .mom in a .momd: verify-build names the file and the refusal.
        let directory = try temporary.make()
        let momd = directory.appendingPathComponent("Near.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        // (The name is built: this file is Swift the source-reference scan reads when fixtures are linted.)
        let mom = "Near 20" + ".mom"
        try Data(try Inflate.decompress(compressed)).write(to: momd.appendingPathComponent(mom))
        do {
            _ = try CompiledModelReader.model(
                at: momd.appendingPathComponent(mom).path, displayPath: "Near.momd/" + mom)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".hasPrefix("Near.momd/\(mom): it references more than "), "\(error)")
        }
    }

    // Case 2 (stores): a cached model that inflates 1,000x is cut at 32x its compressed size (1 MB at least).
    @Test func testCachedModelInflationIsBoundedByItsCompressedSize() throws {
        let store = hostileStores.appendingPathComponent("InflatesFar.sqlite")
        let file = try SQLiteFile(path: store.path)
        let table = try #require(try file.table(named: "Z_MODELCACHE"))
        guard case .blob(let compressed)? = table.rows.first?.values.first else {
            Issue.record("no cache blob")
            return
        }
        #expect(compressed.count < 100_000)
        #expect(StoreMetadata.cacheLimit(compressed.count) == max(1 << 20, compressed.count * 32))
        do {
            _ = try Inflate.decompress(compressed, limit: StoreMetadata.cacheLimit(compressed.count))
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "output over \(StoreMetadata.cacheLimit(compressed.count)) bytes")
        }
        try #expect(StoreMetadata.read(path: store.path).cachedModel == nil)
        // Real caches inflate 1.4-1.8x: the limit never cuts one (the Near fixture's own store has none; a 2 KB
        // cache still gets a megabyte).
        #expect(StoreMetadata.cacheLimit(2_000) == (1 << 20))
    }

    // Case 4: one cell listed 1,500 times, its payload in a 5-page overflow chain.
    @Test func testCellPointerFanIsRefused() throws {
        let store = hostileStores.appendingPathComponent("CellFan.sqlite")
        do {
            _ = try StoreMetadata.read(path: store.path)
            Issue.record("expected an error")
        } catch {
            #expect(
                "\(error)"
                    == "\(store.path): table at page 2: it references more than 94208 bytes of rows (the database holds 28672 bytes): refused as crafted"
            )
        }
        let out = modellint(["store", store.path, near.path], in: repositoryRoot)
        #expect(out.exitCode == 2)
        #expect(out.standardError.contains("refused as crafted"), Comment(rawValue: out.standardError))
    }

    // Case 7: a column named "Z_PLIST,x" is one column, not Z_PLIST.
    @Test func testCreateTableIsTokenisedAsSQLiteDoes() {
        #expect(
            SQLiteFile.columns(
                ofCreateTable: #"CREATE TABLE Z_METADATA ("Z_PLIST,x" BLOB, Z_VERSION INTEGER PRIMARY KEY)"#) == [
                    "Z_PLIST,x", "Z_VERSION",
                ])
        #expect(
            SQLiteFile.columns(
                ofCreateTable:
                    "CREATE TABLE t ([a,b] TEXT, `c``d` INT, 'e' INT, f VARCHAR(255) DEFAULT 'x,(y', -- z, w\n g BLOB /* h, i */, PRIMARY KEY (f))"
            ) == ["a,b", "c`d", "f", "g"])
        #expect(SQLiteFile.columns(ofCreateTable: #"CREATE TABLE "t(" (a, "b"")" INT)"#) == ["a", "b\")"])
        #expect(SQLiteFile.columns(ofCreateTable: "CREATE TABLE t (a INT, b \"unterminated") == ["a", "b"])
    }

    // Case 17: every page in the WAL, page 1 there saying UTF-16le, the main file's encoding unset.
    @Test func testEncodingComesFromPageOneInTheWAL() throws {
        let store = hostileStores.appendingPathComponent("WALUTF16.sqlite")
        let metadata = try StoreMetadata.read(path: store.path)
        #expect(metadata.usedWAL)
        #expect(metadata.uuid == "00000000-0000-4000-8000-000000000021")
        #expect(metadata.storeType == "SQLite")
    }
}

/// Scans that stay linear in their input.
@Suite struct LinearScanTests {
    // One 960 KB line of M.mom literals, comma-separated: every literal is a reference, columns counted along the line once.
    @Test func testALongLineOfLiteralsIsScannedOnce() {
        let count = 120_000
        let text = String(repeating: "\"M.mom\",", count: count)
        let found = SourceReference.scan(text, path: "Long.swift")
        #expect(found.count == count)
        #expect(found.last?.location.column == ((count - 1) * 8 + 1))
        #expect(found.last?.kind == .versionName("M"))
        // A literal never scanned back past its 200-byte limit: no quote before a long run of text.
        let unquoted = String(repeating: "x", count: 500_000) + String(repeating: ".mom\"", count: 100_000)
        #expect(SourceReference.scan(unquoted, path: "Unquoted.swift").count == 0)
        // Columns count characters, not bytes.
        #expect(
            SourceReference.scan("let é = \"A.mom\"; let b = \"B.mom\"", path: "a.swift").map(\.location.column) == [
                9, 26,
            ])
    }

    // 20,000 ids planted along new-version's derivation: the file's ids are collected once.
    @Test func testNewObjectIDsSkipPlantedOnesByLookup() throws {
        let group = XcodeProject.VersionGroup(
            id: "AAAAAAAAAAAAAAAAAAAAAAAA", path: "M.xcdatamodeld", children: ["M 1.xcdatamodel"],
            currentVersion: "M 1.xcdatamodel",
            isCompiled: true, childIDs: ["BBBBBBBBBBBBBBBBBBBBBBBB"], currentVersionID: "BBBBBBBBBBBBBBBBBBBBBBBB")
        var seed = SHA256.hex(group.id + "/M 2.xcdatamodel").uppercased()
        var planted: [String] = []
        for _ in 0..<20_000 {
            planted.append(String(seed.prefix(24)))
            seed = SHA256.hex(seed).uppercased()
        }
        let expected = String(seed.prefix(24))
        let text = """
            /* Begin PBXFileReference section */
            \t\tBBBBBBBBBBBBBBBBBBBBBBBB /* M 1.xcdatamodel */ = {isa = PBXFileReference; lastKnownFileType = wrapper.xcdatamodel; path = "M 1.xcdatamodel"; sourceTree = "<group>"; };
            /* planted: \(planted.joined(separator: " ")) */
            \t\tAAAAAAAAAAAAAAAAAAAAAAAA /* M.xcdatamodeld */ = {
            \t\t\tisa = XCVersionGroup;
            \t\t\tchildren = (
            \t\t\t\tBBBBBBBBBBBBBBBBBBBBBBBB /* M 1.xcdatamodel */,
            \t\t\t);
            \t\t\tcurrentVersion = BBBBBBBBBBBBBBBBBBBBBBBB /* M 1.xcdatamodel */;
            \t\t};
            """
        #expect(ProjectEditor.objectIDs(in: text).count == 20_002)
        let edited = try ProjectEditor.addingVersion("M 2", to: group, in: text)
        #expect(
            edited.contains("currentVersion = \(expected) /* M 2.xcdatamodel */;"),
            Comment(rawValue: edited.suffix(300).description))
    }

    // 100 version groups in one project: each definition line counted from the offsets the parser recorded.
    @Test func testVersionGroupLinesComeFromOnePass() throws {
        var text = "// !$*UTF8*$!\n{\n\tobjects = {\n"
        for i in 0..<100 {
            let id = String(format: "%024X", i + 1)
            text +=
                "\t\t\(id) /* M\(i).xcdatamodeld */ = {\n\t\t\tisa = XCVersionGroup;\n\t\t\tpath = M\(i).xcdatamodeld;\n\t\t};\n"
        }
        text += "\t};\n}\n"
        let project = try XcodeProject.parse(Data(text.utf8), displayPath: "project.pbxproj")
        #expect(project.versionGroups.count == 100)
        #expect((project.versionGroups.first { $0.path == "M7.xcdatamodeld" }?.line) == (4 + 7 * 4))
    }
}

/// Baselines and renames at scale: the work follows the input, not its square.
@Suite struct ScaleTests {
    let temporary = TemporaryDirectories()

    /// A baseline streamed entry by entry: format 2 matches on the key alone, format 1 on its six fields, in any
    /// key order, with the allowances of hand-edited JSON (comments, trailing commas).
    @Test func testBaselinesAreStreamedAndMatchAsBefore() throws {
        let directory = try temporary.make()
        let count = 100_000
        var two = "{ \"findings\": [\n"
        for i in 0..<count {
            two +=
                "  { \"message\": \"m\(i) \\u00e9\\n\", \"key\": \"k\\u001f\(i)\", \"ruleId\": \"r\", \"file\": \"f\", \"extra\": [1, {\"x\": null}] },\n"
        }
        two += "], // written by hand\n \"format\": 2 }\n"
        try Data(two.utf8).write(to: directory.appendingPathComponent("two.json"))
        let loaded = try Baseline.load(path: directory.appendingPathComponent("two.json").path)
        #expect(loaded.count == count)
        #expect(loaded.matchCounts.count == count)
        // The same entries made from their fields match the same digests.
        let made = Baseline(
            entries: (0..<count).map {
                Baseline.Entry(
                    ruleId: "r", file: "f", version: "", entity: "", property: "", message: "m\($0) é\n",
                    key: "k\u{1F}\($0)")
            })
        #expect(made.matchCounts == loaded.matchCounts)

        var one = "{ \"format\": 1, \"findings\": [\n"
        for i in 0..<1_000 {
            one +=
                "  { \"ruleId\": \"r\", \"file\": \"f\", \"entity\": \"E\(i)\", \"message\": \"m\", \"key\": \"ignored\" },\n"
        }
        one += "  { \"ruleId\": \"r\", \"file\": \"f\", \"entity\": \"E0\", \"message\": \"m\" }\n] }\n"
        try Data(one.utf8).write(to: directory.appendingPathComponent("one.json"))
        let first = try Baseline.load(path: directory.appendingPathComponent("one.json").path)
        #expect(first.count == 1_001)
        #expect(first.matchCounts.count == 1_000)
        let fields = Baseline(
            entries: (0..<1_000).map {
                Baseline.Entry(ruleId: "r", file: "f", version: "", entity: "E\($0)", property: "", message: "m")
            }
                + [Baseline.Entry(ruleId: "r", file: "f", version: "", entity: "E0", property: "", message: "m")])
        #expect(fields.matchCounts == first.matchCounts)

        for (text, message) in [
            (
                "{ \"format\": 2, \"findings\": [ { \"ruleId\": \"r\", \"file\": \"f\", \"message\": \"m\" } ] }",
                "findings[0] needs a key (format 2)"
            ),
            ("{ \"format\": 4, \"findings\": [] }", "not a modellint baseline (format 1 to 3)"),
            (
                "{ \"format\": 3, \"findings\": [ { \"ruleId\": \"r\", \"file\": \"f\", \"message\": \"m\" } ] }",
                "findings[0] needs a key (format 3)"
            ),
            (
                "{ \"format\": 2, \"findings\": [ { \"ruleId\": \"r\", \"file\": \"f\" } ] }",
                "findings[0] needs ruleId, file and message"
            ),
            ("{ \"format\": 2, \"findings\": [ { \"ruleId\": \"r\\x\" } ] }", "line 1: an invalid escape in a string"),
            ("{ \"format\": 2, \"findings\": [", "line 1: expected an object"),
            (String(repeating: "[", count: 100), "line 1: expected an object"),
        ] {
            try Data(text.utf8).write(to: directory.appendingPathComponent("bad.json"))
            do {
                _ = try Baseline.load(path: directory.appendingPathComponent("bad.json").path)
                Issue.record("expected an error")
            } catch {
                #expect(
                    "\(error)" == "baseline \(directory.appendingPathComponent("bad.json").path): \(message)",
                    Comment(rawValue: text))
            }
        }
    }

    /// 2,000 entities renamed in one step: every one paired, best score first, ties by name.
    @Test func testMassRenamesArePairedOnce() throws {
        let directory = try temporary.make()
        func body(_ prefix: String) -> String {
            (0..<2_000).map { i in
                "<entity name=\"\(prefix)\(i)\"><attribute name=\"id\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"n\(i)\" optional=\"YES\" attributeType=\"Integer 32\"/></entity>"
            }.joined(separator: "\n")
        }
        let bundle = try writeBundle(
            in: directory, versions: [("Near 1", body("Old")), ("Near 2", body("New"))], current: "Near 2")
        let renamed = lint(bundle).filter { $0.ruleId == "entity-renamed-without-renaming-id" }
        #expect(renamed.count == 2_000)
        // Each Old<i> shares all three properties with New<i> alone: the best pair for every one.
        #expect(
            renamed.allSatisfy { d in
                d.message.hasPrefix("Old\(d.entity!.dropFirst(3)) ")
                    || d.message.contains("Old\(d.entity!.dropFirst(3)) ")
            }, Comment(rawValue: renamed.prefix(2).map(\.message).joined(separator: "\n")))
    }
}

/// The rename guesses against a brute-force oracle: every pair listed, sorted by score (descending), old name and
/// new name, then taken greedily, as the rule documents it; on random models where many entities share properties,
/// so ties and exhausted candidates are common.
@Suite struct EntityRenameGuessTests {
    @Test func testTheGuessesAreTheGreedyPairingOfEveryCandidate() throws {
        var generator = SystemRandomNumberGenerator()
        let pool = ["id", "title", "name", "date", "count", "flag", "note", "kind"]
        let types = ["String", "Integer 32", "Date", "Boolean"]
        func model(_ prefix: String, _ count: Int) -> (xml: String, names: [String]) {
            var names: [String] = []
            var body = ""
            for i in 0..<count {
                let name = "\(prefix)\(i)"
                names.append(name)
                body += "<entity name=\"\(name)\">"
                for property in pool.shuffled(using: &generator).prefix(Int.random(in: 2...5, using: &generator)) {
                    let type = types[property.utf8.count % types.count]
                    body += "<attribute name=\"\(property)\" optional=\"YES\" attributeType=\"\(type)\"/>"
                }
                body += "</entity>\n"
            }
            return (RuleExample.modelHeader + "\n" + body + "</model>\n", names)
        }
        var compared = 0
        for _ in 0..<40 {
            let (oldXML, _) = model("Old", Int.random(in: 1...25, using: &generator))
            let (newXML, _) = model("New", Int.random(in: 1...25, using: &generator))
            guard case .model(let from) = ContentsParser.parse(data: Data(oldXML.utf8), path: "a"),
                case .model(let to) = ContentsParser.parse(data: Data(newXML.utf8), path: "b")
            else {
                Issue.record("a generated model did not parse")
                return
            }
            let diff = ModelDiff(
                from: VersionRef(name: "A", contentsPath: "a", model: from),
                to: VersionRef(name: "B", contentsPath: "b", model: to), isAdjacent: true)
            // The oracle.
            var pairs: [(score: Int, old: String, new: String)] = []
            for old in diff.removedEntities {
                let a = RenameHeuristics.signature(old, in: from)
                for new in diff.addedEntities where new.elementID == nil && new.name != old.name {
                    let b = RenameHeuristics.signature(new, in: to)
                    let shared = a.intersection(b).count
                    if shared >= 2, shared * 2 > max(a.count, b.count) { pairs.append((shared, old.name, new.name)) }
                }
            }
            pairs.sort { ($1.score, $0.old, $0.new) < ($0.score, $1.old, $1.new) }
            var usedOld: Set<String> = []
            var usedNew: Set<String> = []
            var expected: [String] = []
            for pair in pairs where !usedOld.contains(pair.old) && !usedNew.contains(pair.new) {
                usedOld.insert(pair.old)
                usedNew.insert(pair.new)
                expected.append("\(pair.old)>\(pair.new):\(pair.score)")
            }
            let guessed = RenameHeuristics.entityRenames(in: diff).map { "\($0.old.name)>\($0.new.name):\($0.shared)" }
            #expect(guessed == expected)
            compared += expected.count
        }
        #expect(compared > 100, "the random models made too few guesses to test anything")
    }
}
