import Foundation
import XCTest
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

/// Precision, case by case, on the hand-written bundles in Fixtures/Precision: history is a note, one problem is
/// one finding, Xcode's own vocabulary is known, version order comes from evidence, mapping models are found
/// where Xcode compiles them from, and the messages say what changed.
final class PrecisionTests: XCTestCase {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures/Precision")

    private func check(_ path: String, _ extra: [String] = [], in directory: URL? = nil) -> (
        CommandOutput, [[String: Any]]
    ) {
        let out = modellint(["check", path, "--format", "json"] + extra, in: directory ?? fixtures)
        return (out, jsonDiagnostics(out))
    }

    private func messages(_ diagnostics: [[String: Any]]) -> [String] {
        diagnostics.map { $0["message"] as? String ?? "" }
    }

    // 1. History is information.
    func testAChangeWhoseNewerVersionShippedIsANoteThatTheTextReportCounts() {
        let (out, diagnostics) = check("History.xcdatamodeld")
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "property-removed note Store 1>Store 2 Item.old @4",
                "property-removed warning Store 2>Store 3 Item.recent @4",
            ], "Store 2 is before the current Store 3: it shipped, and its step is history")

        let text = modellint(["check", "History.xcdatamodeld", "--no-color"], in: fixtures).standardOutput
        XCTAssertEqual(text.components(separatedBy: "\n").filter { $0.contains(": note: ") }, [])
        XCTAssertTrue(
            text.contains(
                "History.xcdatamodeld/Store 2.xcdatamodel/contents:4:5: warning: Item.recent (attribute) was removed between Store 2 and Store 3"
            ), text)
        XCTAssertTrue(
            text.hasSuffix("0 errors, 1 warning, 1 note (--notes to list them) in 1 bundle (3 versions)\n"), text)

        let withNotes = modellint(["check", "History.xcdatamodeld", "--no-color", "--notes"], in: fixtures)
            .standardOutput
        XCTAssertTrue(
            withNotes.contains(
                "History.xcdatamodeld/Store 1.xcdatamodel/contents:4:5: note: Item.old (attribute) was removed between Store 1 and Store 2"
            ), withNotes)
        XCTAssertTrue(withNotes.hasSuffix("0 errors, 1 warning, 1 note in 1 bundle (3 versions)\n"), withNotes)
    }

    func testALockedVersionIsShippedAndAStagedOneKeepsFullSeverity() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = directory.appendingPathComponent("History.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let source = fixtures.appendingPathComponent("History.xcdatamodeld")
        // Only Store 1 is locked (released with Store 1 alone): Store 2 has not shipped, so with a lock file the
        // Store 1 -> Store 2 step keeps its severity.
        try FileManager.default.copyItem(
            at: source.appendingPathComponent("Store 1.xcdatamodel"),
            to: bundle.appendingPathComponent("Store 1.xcdatamodel"))
        XCTAssertEqual(modellint(["lock", "History.xcdatamodeld"], in: directory).exitCode, 0)
        for name in ["Store 2.xcdatamodel", "Store 3.xcdatamodel", ".xccurrentversion"] {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(name), to: bundle.appendingPathComponent(name))
        }
        let (_, diagnostics) = check("History.xcdatamodeld", in: directory)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "property-removed warning Store 1>Store 2 Item.old @4",
                "property-removed warning Store 2>Store 3 Item.recent @4",
            ])
    }

    /// `--against REF` reads what shipped where the bundle was at REF when the change moved it
    /// (a folder above it renamed): REF's current version Store 2 had not shipped, so its step keeps full severity.
    func testAgainstReadsAMovedBundleWhereItWasAtTheRevision() throws {
        let directory = try makeTemporaryDirectory(self)
        try git(["init", "-q", "-b", "main"], in: directory)
        let source = fixtures.appendingPathComponent("History.xcdatamodeld")
        let before = directory.appendingPathComponent("Old/History.xcdatamodeld")
        try FileManager.default.createDirectory(at: before, withIntermediateDirectories: true)
        for name in ["Store 1.xcdatamodel", "Store 2.xcdatamodel"] {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(name), to: before.appendingPathComponent(name))
        }
        try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": "Store 2.xcdatamodel"], format: .xml, options: 0
        ).write(to: before.appendingPathComponent(".xccurrentversion"))
        try git(["add", "-A"], in: directory)
        try git(["commit", "-q", "-m", "Store 2"], in: directory)
        try git(["mv", "Old", "New"], in: directory)
        let after = directory.appendingPathComponent("New/History.xcdatamodeld")
        try FileManager.default.copyItem(
            at: source.appendingPathComponent("Store 3.xcdatamodel"),
            to: after.appendingPathComponent("Store 3.xcdatamodel"))
        try FileManager.default.removeItem(at: after.appendingPathComponent(".xccurrentversion"))
        try FileManager.default.copyItem(
            at: source.appendingPathComponent(".xccurrentversion"),
            to: after.appendingPathComponent(".xccurrentversion"))
        try git(["add", "-A"], in: directory)
        try git(["commit", "-q", "-m", "move, and Store 3"], in: directory)

        let expected = [
            "property-removed warning Store 1>Store 2 Item.old @4",
            "property-removed warning Store 2>Store 3 Item.recent @4",
        ]
        XCTAssertEqual(
            summary(check("New/History.xcdatamodeld", ["--against", "HEAD~1"], in: directory).1), expected)
        // Without a record, every version before the current one counts as shipped: Store 2's step is history.
        XCTAssertEqual(
            summary(check("New/History.xcdatamodeld", in: directory).1),
            [
                "property-removed note Store 1>Store 2 Item.old @4",
                "property-removed warning Store 2>Store 3 Item.recent @4",
            ])
    }

    // 2. One problem, one finding.
    func testARepeatedFindingIsOneAtItsNewestVersionAndARenameGuessReplacesTheRemoval() {
        let (_, diagnostics) = check("Repeated.xcdatamodeld")
        XCTAssertEqual(
            summary(diagnostics),
            [
                "missing-inverse note ->Store 4 Item.owner @4",
                "property-renamed-without-renaming-id warning Store 3>Store 4 Item.title @5",
            ], "no property-removed for titel: the rename guess names it; the missing inverse shipped in Store 1 to 3")
        XCTAssertEqual(diagnostics[0]["versions"] as? [String], ["Store 1", "Store 2", "Store 3", "Store 4"])
        XCTAssertEqual(
            messages(diagnostics),
            [
                "Item.owner has no inverse (in Store 1 to Store 4)",
                "Item.titel was removed and Item.title added between Store 3 and Store 4, both String attributes: without a Renaming ID this is a removal, and if it is a rename, titel's data is dropped. Set title's Renaming ID to \"titel\"; if it is not a rename, declare Item.titel retired in .modellint.json",
            ])
    }

    /// The base version named like its bundle collapses with the later ones; two constraints
    /// added on one entity are two skip-version findings, each listing its versions once; a property's two
    /// changes in one step are listed as one problem in the text report.
    func testOneProblemOneFindingWithABaseVersionNamedLikeTheBundle() {
        let (out, diagnostics) = check("OneProblem.xcdatamodeld")
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "entity-removed note OneProblem 2>OneProblem 3 Tag.- @11",
                "missing-inverse note ->OneProblem 3 Item.labels @5",
                "missing-inverse note ->OneProblem 4 Item.owner @4",
                "delete-rule-changed note OneProblem 3>OneProblem 4 Item.labels @5",
                "missing-inverse warning ->OneProblem 4 Item.labels @5",
                "ordered-flag-changed note OneProblem 3>OneProblem 4 Item.labels @5",
                "skip-version-upgrade warning OneProblem>OneProblem 4 Tag.- @20",
                "skip-version-upgrade warning OneProblem>OneProblem 4 Tag.- @23",
            ])
        XCTAssertEqual(
            diagnostics[2]["versions"] as? [String], ["OneProblem", "OneProblem 2", "OneProblem 3", "OneProblem 4"])
        XCTAssertEqual(
            diagnostics[2]["message"] as? String, "Item.owner has no inverse (in OneProblem to OneProblem 4)")
        for skip in diagnostics[6...] {
            XCTAssertEqual(skip["affectedVersions"] as? [String], ["OneProblem", "OneProblem 2"])
        }
        XCTAssertEqual(
            messages(Array(diagnostics[6...])),
            [
                "Tag gained the uniqueness constraint (code) between OneProblem and OneProblem 4: the store fails to open on any device holding duplicates; only devices updating straight from OneProblem or OneProblem 2 meet it",
                "Tag gained the uniqueness constraint (slug) between OneProblem and OneProblem 4: the store fails to open on any device holding duplicates; only devices updating straight from OneProblem or OneProblem 2 meet it",
            ])
        XCTAssertEqual(diagnostics.map { $0["groupedUnder"] as? String }[3], "ordered-flag-changed")
        XCTAssertEqual(diagnostics.compactMap { $0["groupedUnder"] as? String }.count, 1)

        let text = modellint(["check", "OneProblem.xcdatamodeld", "--no-color", "--notes"], in: fixtures)
            .standardOutput.components(separatedBy: "\n")
        guard let heading = text.firstIndex(where: { $0.contains("[ordered-flag-changed]") }) else {
            return XCTFail(text.joined(separator: "\n"))
        }
        XCTAssertTrue(
            text[heading + 2].hasPrefix(
                "    OneProblem.xcdatamodeld/OneProblem 4.xcdatamodel/contents:5:5: note: Item.labels delete rule changed from Nullify to Cascade"
            ), text[heading + 2])
    }

    // 3. Real vocabulary.
    func testXcodesOwnAttributesAreKnownAndAMisspellingNamesItsElementAndTheClosestName() {
        let (_, diagnostics) = check("Vocabulary.xcdatamodeld")
        XCTAssertEqual(
            summary(diagnostics), ["unknown-xml-attribute warning ->Store 1 Item.title @4"],
            "name=\"\" on <model> and indexed=\"YES\" on <relationship> are Xcode's")
        XCTAssertEqual(
            messages(diagnostics),
            [
                "optonal is not an attribute of <attribute> in Core Data's model format (on Item.title), perhaps a misspelling of optional: the model compiler ignores it"
            ])
        let fix = diagnostics.first?["fix"] as? String ?? ""
        XCTAssertTrue(fix.hasPrefix("if it is a typo or a hand edit, remove it or correct it"), fix)
        XCTAssertTrue(fix.contains("if Xcode itself wrote it, modellint's vocabulary lacks it"), fix)
    }

    // 4. Version order from evidence.
    func testTheCurrentVersionsStemComesLast() {
        let (out, diagnostics) = check("RenamedStems.xcdatamodeld")
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            summary(diagnostics), ["version-order-inferred note ->NewModel -.- @0"],
            "natural order would put NewModel first and report the added attribute backwards, as a removal")
        XCTAssertEqual(
            messages(diagnostics),
            [
                "the versions of RenamedStems.xcdatamodeld have 2 name stems, ordered oldmodel, then NewModel (the current version NewModel comes last)"
            ])
    }

    func testStemsNothingOrdersAreAmbiguousAndVersionOrderSilencesIt() throws {
        let (out, diagnostics) = check("AmbiguousStems.xcdatamodeld")
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(summary(diagnostics), ["version-order-ambiguous warning ->Gamma -.- @0"])
        XCTAssertEqual(
            messages(diagnostics),
            [
                "the version order of AmbiguousStems.xcdatamodeld is doubtful: its names have 3 stems, and nothing orders some of the stems against each other; modellint uses Alpha, then Beta, then Gamma"
            ])
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("AmbiguousStems.xcdatamodeld"),
            to: directory.appendingPathComponent("AmbiguousStems.xcdatamodeld"))
        try Data(#"{"bundles": {"AmbiguousStems.xcdatamodeld": {"versionOrder": ["Beta", "Alpha", "Gamma"]}}}"#.utf8)
            .write(to: directory.appendingPathComponent(".modellint.json"))
        let (_, configured) = check("AmbiguousStems.xcdatamodeld", in: directory)
        XCTAssertEqual(
            summary(configured), ["property-removed note Beta>Alpha Item.b @5"],
            "the configured order wins: Beta -> Alpha removes b (history, Alpha shipped before Gamma)")
    }

    func testGitHistoryOrdersStemsWhenTheCommitsDo() throws {
        let directory = try makeTemporaryDirectory(self)
        try git(["init", "-q", "-b", "main"], in: directory)
        let source = fixtures.appendingPathComponent("AmbiguousStems.xcdatamodeld")
        let bundle = directory.appendingPathComponent("AmbiguousStems.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        // Beta was committed first, then Alpha, then Gamma (current): git says Beta, Alpha, Gamma.
        for version in ["Beta", "Alpha", "Gamma"] {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent("\(version).xcdatamodel"),
                to: bundle.appendingPathComponent("\(version).xcdatamodel"))
            if version == "Gamma" {
                try FileManager.default.copyItem(
                    at: source.appendingPathComponent(".xccurrentversion"),
                    to: bundle.appendingPathComponent(".xccurrentversion"))
            }
            try git(["add", "-A"], in: directory)
            try git(["commit", "-q", "-m", "add \(version)"], in: directory)
        }
        let (_, diagnostics) = check("AmbiguousStems.xcdatamodeld", in: directory)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "property-removed note Beta>Alpha Item.b @5",
                "version-order-inferred note ->Gamma -.- @0",
            ])
        XCTAssertEqual(
            messages(diagnostics).last,
            "the versions of AmbiguousStems.xcdatamodeld have 3 name stems, ordered Beta, then Alpha, then Gamma (the current version Gamma comes last; git added the Beta versions before the Alpha ones)"
        )
    }

    // 5. Mapping models wherever Xcode compiles them: Models/Migrations beside Models/ModelVersions.
    private let library = "SiblingMappings/Models/ModelVersions/Library.xcdatamodeld"
    private let coveredTypeChange = [
        "progressive-migration-likely warning ->Library 2 -.- @0",
        "attribute-type-incompatible note Library 1>Library 2 Book.price @5",
    ]

    func testAMappingModelInASiblingFolderOfTheProjectIsFoundOutsideGit() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("SiblingMappings"),
            to: directory.appendingPathComponent("SiblingMappings"))
        let (out, diagnostics) = check(library, in: directory)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            summary(diagnostics), coveredTypeChange, "the search starts at the folder holding Library.xcodeproj")
        XCTAssertEqual(diagnostics.last?["mappingModel"] as? String, "Library1ToLibrary2")

        // Without the project folder the search starts at the bundle's parent, which does not hold Migrations.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("SiblingMappings/Library.xcodeproj"))
        let (unmapped, uncovered) = check(library, in: directory)
        XCTAssertEqual(unmapped.exitCode, 1)
        XCTAssertEqual(summary(uncovered), ["attribute-type-incompatible error Library 1>Library 2 Book.price @5"])
    }

    func testAMappingModelAnywhereGitListsIsFoundAndNeverCoversAnotherBundle() throws {
        let directory = try makeTemporaryDirectory(self)
        try git(["init", "-q", "-b", "main"], in: directory)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("SiblingMappings"),
            to: directory.appendingPathComponent("SiblingMappings"))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("SiblingMappings/Library.xcodeproj"))
        // A second bundle whose versions end in the same numbers: Library1ToLibrary2 names Library.xcdatamodeld.
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("History.xcdatamodeld"),
            to: directory.appendingPathComponent("History.xcdatamodeld"))
        try git(["add", "-A"], in: directory)
        let (_, diagnostics) = check(library, in: directory)
        XCTAssertEqual(summary(diagnostics), coveredTypeChange, "git ls-files lists the mapping model, wherever it is")
        let (_, other) = check("History.xcdatamodeld", in: directory)
        XCTAssertEqual(
            summary(other),
            [
                "property-removed note Store 1>Store 2 Item.old @4",
                "property-removed warning Store 2>Store 3 Item.recent @4",
            ])
        XCTAssertTrue(other.allSatisfy { $0["mappingModel"] == nil })
    }

    // 7. What a removal loses.
    func testARemovalThatLosesNothingIsANoteAndAManyToManyIsAWarning() {
        let (_, diagnostics) = check("Removals.xcdatamodeld")
        XCTAssertEqual(
            summary(diagnostics),
            [
                "property-removed note Store 1>Store 2 Author.nameLength @5",
                "property-removed note Store 1>Store 2 Author.books @6",
                "property-removed warning Store 1>Store 2 Author.tags @7",
                "property-removed warning Store 1>Store 2 Tag.authors @13",
                "missing-inverse warning ->Store 2 Book.author @7",
            ])
        XCTAssertEqual(
            Array(messages(diagnostics).prefix(3)),
            [
                "Author.nameLength (a derived attribute) was removed between Store 1 and Store 2: its value was computed from name.length, so nothing stored is lost",
                "Author.books (the to-many side of a one-to-many relationship) was removed between Store 1 and Store 2: the links are stored on the to-one side, Book.author, which remains, so no data is lost",
                "Author.tags (one side of a many-to-many relationship) was removed between Store 1 and Store 2: the join table is dropped, and with it every link between Author and Tag",
            ])
    }

    // 8. Renaming heuristics consistent with the identifiers. The two versions hash identically (renaming
    // identifiers are not hashed): this step migrates nothing, so nothing is removed on it; the identifier that
    // matches nothing is still an error, for the first migration that does run.
    func testASameNamedPropertyWhoseIdentifierChangedIsNeverARenameAndItsRemovalSaysWhy() {
        let (_, diagnostics) = check("IdentifierChanged.xcdatamodeld")
        XCTAssertEqual(summary(diagnostics), ["renaming-id-unknown error Store 1>Store 2 Item.title @4"])
        XCTAssertEqual(
            messages(diagnostics),
            [
                "Item.title's renaming identifier \"heading\" matches no property of Item in Store 1: it is treated as new, and the property it was meant to continue is dropped"
            ])
    }

    // One problem, one finding: a relationship whose identifier changed to one no earlier property had, in a step
    // that migrates (Item gained `subtitle`), is the identifier's error alone; the removal of the same property on
    // the same step is not reported beside it.
    func testARenamingIdentifierMatchingNothingIsOneFindingNotTwo() {
        let (_, diagnostics) = check("RelationshipIdentifierUnknown.xcdatamodeld")
        XCTAssertEqual(summary(diagnostics), ["renaming-id-unknown error Shelf 1>Shelf 2 Item.tags @6"])
        XCTAssertEqual(
            messages(diagnostics),
            [
                "Item.tags's renaming identifier \"labels\" matches no property of Item in Shelf 1: it is treated as new, and the property it was meant to continue is dropped"
            ])
    }

    // 9. Transformers.
    func testTheSecureTransformerIsANoteForAllowedClassesAWarningForOthersAndAClassNameAloneIsNothing() {
        let (out, diagnostics) = check("Transformers.xcdatamodeld")
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "transformer-changed note Store 1>Store 2 Item.tags @4",
                "transformer-changed warning Store 1>Store 2 Item.colour @5",
            ], "names changed only its customClassName ([String] -> [NSString]): no finding")
        XCTAssertEqual(
            messages(diagnostics),
            [
                "Item.tags changed transformer from the default transformer ([String]) to NSSecureUnarchiveFromData ([String]) between Store 1 and Store 2: Apple's recommended step; the secure transformer reads the same keyed archives for [String], so existing values still decode",
                "Item.colour changed transformer from the default transformer (Colour) to NSSecureUnarchiveFromData (Colour) between Store 1 and Store 2: the secure transformer decodes only NSArray, NSDictionary, NSSet, NSString, NSNumber, NSDate, NSData, NSURL, NSUUID and NSNull, so existing Colour values fail to decode after the update",
            ])
    }

    // 10. Index flags and legacy compound indexes.
    func testEveryKindOfIndexChangeIsSeen() {
        let (_, diagnostics) = check("IndexFlags.xcdatamodeld")
        XCTAssertEqual(
            summary(diagnostics),
            [
                "index-changed-without-hash-change note Store 1>Store 2 Item.- @3",
                "index-changed-without-hash-change note Store 1>Store 2 Item.title @4",
                "index-changed-without-hash-change note Store 1>Store 2 Item.parent @6",
                "missing-inverse note ->Store 2 Item.parent @6",
            ])
        let tail =
            "between Store 1 and Store 2, but no entity's version hash changed: existing stores do not migrate and may never get the index"
        XCTAssertEqual(
            Array(messages(diagnostics).prefix(3)),
            [
                "Item's indexes changed \(tail)", "Item.title became indexed \(tail)",
                "Item.parent stopped being indexed \(tail)",
            ])
    }

    // 11. Reserved property names.
    func testPropertiesNamedLikeNSManagedObjectMethodsAreErrors() {
        let (out, diagnostics) = check("Reserved.xcdatamodeld")
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "reserved-property-name error ->Store 1 Item.description @4",
                "reserved-property-name error ->Store 1 Item.entity @5",
            ], "summary is an ordinary name")
        XCTAssertEqual(
            messages(diagnostics).first,
            "Item.description is named like a method of NSManagedObject or NSObject (description): Apple documents that a property cannot have this name; the generated class does not compile, or the accessor shadows Core Data's own"
        )
    }

    // 12. Messages say old -> new, and dates as dates.
    func testHashModifiersGiveOldAndNewAndDateDefaultsGiveISODates() {
        let (_, diagnostics) = check("Messages.xcdatamodeld")
        XCTAssertEqual(
            summary(diagnostics),
            [
                "hash-modifier-changed note Store 1>Store 2 Item.title @4",
                "default-value-changed note Store 1>Store 2 Item.created @5",
            ])
        XCTAssertEqual(
            messages(diagnostics),
            [
                "Item.title's versionHashModifier changed from \"v1\" to \"v2\" between Store 1 and Store 2: every store migrates",
                "Item.created default changed from 0 s (2001-01-01T00:00:00Z) to 694224000 s (2023-01-01T00:00:00Z) between Store 1 and Store 2; it affects new objects only",
            ])
    }
}

/// A finding's path with its version's folder replaced: byte for byte for ASCII, what Foundation's search gives.
final class VersionFolderReplacementTests: XCTestCase {
    func testTheVersionFolderIsReplacedAsFoundationReplacesIt() {
        let placeholder = "\u{0}version\u{0}"
        let cases: [(version: String, file: String)] = [
            ("Model 2", "App/Model.xcdatamodeld/Model 2.xcdatamodel/contents"),
            ("Model 2", "App/Model.xcdatamodeld/Model 22.xcdatamodel/contents"),
            ("Model", "Model.xcdatamodel/contents"),
            ("Model", "/Model.xcdatamodel/Model.xcdatamodel/contents"),
            ("a", "/a.xcdatamodel/a.xcdatamodel/"),
            ("", "B/.xcdatamodel/contents"),
            ("v1.2 (beta)", "x/v1.2 (beta).xcdatamodel/contents"),
            ("Near 1", "Near.xcdatamodeld/Near 1.xcdatamodel"),
            // Not ASCII: Foundation decides (canonical equivalence: a precomposed é matches a decomposed one).
            ("Caf\u{E9}", "M.xcdatamodeld/Cafe\u{301}.xcdatamodel/contents"),
            ("\u{212A}", "M.xcdatamodeld/K.xcdatamodel/contents"),
        ]
        for (version, file) in cases {
            XCTAssertEqual(
                RepeatedFindings.replacingVersionFolder(version, in: file, with: placeholder),
                file.replacingOccurrences(of: "/" + version + ".xcdatamodel/", with: "/" + placeholder + "/"),
                "\(version) in \(file)")
        }
        XCTAssertEqual(
            RepeatedFindings.replacingVersionFolder("a", in: "/a.xcdatamodel/a.xcdatamodel/", with: "V"),
            "/V/a.xcdatamodel/")
    }
}
