import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// libFuzzer entry point: every reader of untrusted bytes, and everything downstream of the model parser.
/// Built by Fuzz/run together with the ModelLint sources (one module), never part of the package.
@_cdecl("LLVMFuzzerTestOneInput")
public func modelLintFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let reader = structuralReader {
        structural(reader, [UInt8](data))
        return 0
    }
    let alone = ContentsParser.parse(data: data, path: "fuzz/contents")

    // Differential: parsed again with its own entities cached, so every repeat is blanked before the parser
    // reads it, the file must give exactly what it gives alone.
    let cache = EntitySourceCache()
    _ = ContentsParser.parse(data: data, path: "fuzz/contents", cache: cache)
    let blanked = ContentsParser.parse(data: data, path: "fuzz/contents", cache: cache)
    if fingerprint(alone) != fingerprint(blanked) {
        fatalError("blanked repeats parse differently:\n\(fingerprint(alone))\n\(fingerprint(blanked))")
    }
    // And with only its properties cached, so every cached property of every entity is blanked.
    let properties = ContentsParser.parse(data: data, path: "fuzz/contents", cache: cache.propertiesOnly())
    if fingerprint(alone) != fingerprint(properties) {
        fatalError("blanked properties parse differently:\n\(fingerprint(alone))\n\(fingerprint(properties))")
    }

    if case .model(let model) = alone {
        let context = RuleContext(cloudKitOverride: nil, retired: [], migration: .direct)
        let version = VersionRef(name: "Fuzz 1", contentsPath: "fuzz/contents", model: model)
        for case let rule as any VersionRule in RuleRegistry.all { _ = rule.check(model, context: context) }
        let diff = ModelDiff(
            from: version, to: VersionRef(name: "Fuzz 2", contentsPath: "fuzz/contents", model: model), isAdjacent: true
        )
        for case let rule as any ChangeRule in RuleRegistry.all { _ = rule.check(diff, context: context) }
        _ = ChangeClassifier.entries(of: diff)
        _ = VersionDigest(model: model)
    }
    // The input's text as a default value of every attribute type: judged, never trapped on.
    let text = String(decoding: data.prefix(512), as: UTF8.self)
    for type in AttributeType.known {
        var attribute = Attribute(name: "a", location: SourceLocation(file: "f"), type: type)
        attribute.defaultValueString = text
        attribute.defaultDateTimeInterval = text
        _ = DefaultValueVerdict.judge(attribute)
    }
    if case .model(let model) = alone { checkReports(model) }
    // Compiled models: the bytes as a .mom and as a .cdm (a binary plist graph), the model read back hashed and
    // judged by the build rules against itself.
    let bytes = [UInt8](data)
    if let archive = try? KeyedArchive(bytes: bytes) {
        if let model = try? CompiledModelReader.model(from: archive, displayPath: "fuzz.mom") {
            let compiled = CompiledVersion(name: "Fuzz 1", path: "fuzz.mom", model: model)
            let build = CompiledModel(path: "fuzz.momd", currentVersion: "Fuzz 1", versions: [compiled])
            let source = [VersionRef(name: "Fuzz 1", contentsPath: "fuzz/contents", model: model)]
            for case let rule as any BuildRule in RuleRegistry.all {
                _ = rule.check(build, source: source, current: source.first, context: RuleContext())
            }
        }
    }
    // The bytes as a mapping model's embedded model, matched against itself as a version.
    if let snapshot = try? MappingModelSnapshot.model(archive: bytes, displayPath: "fuzz") {
        let version = VersionRef(name: "Fuzz 1", contentsPath: "fuzz/contents", model: snapshot)
        _ = MappingModelReader.match(
            MappingModelFile(sourcePath: nil, destinationPath: nil, source: snapshot, destination: snapshot),
            name: "Fuzz", path: "fuzz", versions: [version])
    }
    // The bytes as a SQLite store (and as the WAL of a one-page database).
    if let file = try? SQLiteFile(bytes: bytes) { _ = try? StoreMetadata.read(file, path: "fuzz.sqlite") }
    _ = SQLiteFile.committedFrames(bytes, pageSize: 4096)
    _ = try? Inflate.decompress(bytes, limit: 1 << 20)
    _ = CurrentVersionReader.parse(data)
    // The bytes as Swift files: the declaration scanner, the schema sets built from them, the SwiftData rules and
    // the NSManagedObject subclasses.
    let swift = StructuralInputs.swiftFiles(bytes)
    _ = SwiftDataReader.managedObjectClasses(swift)
    for set in SwiftDataReader.schemaSets(swift, moduleName: "Fuzz") {
        _ = set.bundle.versions.map { $0.model?.versionHashes }
        _ = ContentsWriter.contents(of: set.current?.model ?? Model(location: SourceLocation(file: "f"), entities: []))
        for case let rule as any SwiftDataRule in RuleRegistry.all { _ = rule.check(set, context: SwiftDataContext()) }
    }
    // The bytes as a project.pbxproj: the OpenStep reader, then the version groups read from what it gives.
    _ = try? ProjectFileParser.parse(data)
    _ = try? XcodeProject.parse(data, displayPath: "fuzz/project.pbxproj")
    if let json = try? JSONValue.parse(data) {
        _ = try? LockFile.parse(json, file: "fuzz/modellint.lock")
        _ = try? Configuration.parse(
            json, baseDirectory: "/nonexistent", knownRuleIDs: RuleRegistry.ids, file: "fuzz/.modellint.json")
        _ = json.serialized()
    }
    return 0
}

/// Everything a parse gives, as text to compare. Content keys are left out: a repeat nested inside an unknown
/// element is blanked before its container's text is hashed, so the container's key can differ, and keys are
/// only ever compared with each other within one run, where either value is sound (found by this fuzzer;
/// Fuzz/regressions/contents-blanked-repeat-nested-in-unknown-element-*).
private func fingerprint(_ content: VersionContent) -> String {
    switch content {
    case .model(let model):
        return
            "\(model.location) \(model.header.sorted { $0.key < $1.key }) \(model.entities) \(model.configurations) \(model.fetchRequests) \(model.composites) \(model.unknownXML)"
    case .malformed(let reason, let location): return "malformed \(location) \(reason)"
    case .missing: return "missing"
    case .legacy: return "legacy"
    }
}

/// Every finding about a (hostile) model, through every report format: each report must parse with a real
/// parser, and no line of the text-like ones may be a workflow command the GitHub runner would run.
private func checkReports(_ model: Model) {
    let version = ModelVersion(
        name: "Fuzz 1", folderPath: "fuzz/Fuzz 1.xcdatamodel", contentsPath: "fuzz/contents", content: .model(model))
    let bundle = ModelBundle(
        path: "fuzz", versions: [version], declaredCurrentVersion: "Fuzz 1", currentVersionFile: .present)
    let diagnostics = Linter(configuration: Configuration(baseDirectory: "/nonexistent")).lint(bundle)
    let report = LintReport(
        bundles: [BundleSummary(path: "fuzz", currentVersion: "Fuzz 1", versions: ["Fuzz 1"])], diagnostics: diagnostics
    )
    let paths = PathRelativizer(root: "/", workingDirectory: "/")
    for reporter in [JSONReporter(), SARIFReporter(rules: RuleRegistry.descriptions, paths: paths)] as [any Reporter] {
        if (try? JSONSerialization.jsonObject(with: Data(reporter.render(report).utf8))) == nil {
            fatalError("\(type(of: reporter)) wrote invalid JSON")
        }
    }
    for reporter in [JUnitReporter(paths: paths), CheckstyleReporter(paths: paths)] as [any Reporter] {
        let parser = XMLParser(data: Data(reporter.render(report).utf8))
        if !parser.parse() || parser.parserError != nil { fatalError("\(type(of: reporter)) wrote invalid XML") }
    }
    let github = GitHubReporter(paths: paths).render(report).split(separator: "\n")
    if github.count != diagnostics.count
        || github.contains(where: {
            !$0.hasPrefix("::error ") && !$0.hasPrefix("::warning ") && !$0.hasPrefix("::notice ")
        })
    {
        fatalError("a GitHub annotation spans lines or is not an annotation")
    }
    // Markdown: every error and warning one row, however hostile the names.
    let rows = MarkdownReporter(paths: paths).render(report).split(separator: "\n").filter {
        $0.hasPrefix("| ❌") || $0.hasPrefix("| ⚠️")
    }
    if rows.count != report.diagnostics.filter({ $0.severity != .note }).count {
        fatalError("markdown rows: \(rows.count)")
    }
    for line in TextReporter(useColor: false).render(report).split(separator: "\n") {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("::") || line.contains("##[") { fatalError("a text line is a workflow command: \(line)") }
        if line.unicodeScalars.contains(where: { ReportText.isUnsafe($0.value) }) {
            fatalError("a raw control or bidi character in text")
        }
    }
}

/// `MODELLINT_FUZZ_STRUCTURAL=READER` (Fuzz/run --structural READER): the input is a recipe (StructuralInputs).
private let structuralReader: StructuralReader? = ProcessInfo.processInfo.environment["MODELLINT_FUZZ_STRUCTURAL"]
    .flatMap(StructuralReader.init(rawValue:))

/// The seed store the SQLite recipes rewrite: a real one, with overflow and interior pages.
private let seedStore: [UInt8] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Stores/Near20Large.sqlite")
    return (try? [UInt8](Data(contentsOf: url))) ?? []
}()

private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("modellint-fuzz-\(getpid()).json")
    .path

private func structural(_ reader: StructuralReader, _ bytes: [UInt8]) {
    var recipe = Recipe(bytes)
    switch reader {
    case .plist:
        let built = StructuralInputs.plist(&recipe)
        _ = try? BinaryPropertyList(bytes: built)
        _ = try? PropertyList.parse(Data(built))
        _ = CurrentVersionReader.parse(Data(built))
    case .archive:
        let built = StructuralInputs.plist(&recipe, archive: true)
        if let archive = try? KeyedArchive(bytes: built) {
            _ = try? CompiledModelReader.model(from: archive, displayPath: "fuzz.mom")
            _ = try? MappingModelSnapshot.model(archive: built, displayPath: "fuzz")
            for object in 0..<min(archive.archived.count, 64) {
                _ = archive.entries(object)
                _ = archive.members(object)
            }
        }
    case .sqlite:
        let built = StructuralInputs.sqlite(&recipe, seed: seedStore)
        if let file = try? SQLiteFile(bytes: built) {
            _ = try? StoreMetadata.read(file, path: "fuzz.sqlite")
            _ = try? file.rows(ofTreeAt: 1)
        }
    case .json:
        let built = StructuralInputs.json(&recipe)
        guard FileManager.default.createFile(atPath: scratch, contents: Data(built)) else { return }
        _ = try? Baseline.load(path: scratch)
    case .swift:
        let built = StructuralInputs.swift(&recipe)
        _ = SourceReference.scan(bytes: built, path: "Fuzz.swift")
        let files = StructuralInputs.swiftFiles(built)
        _ = SwiftDataReader.managedObjectClasses(files)
        for set in SwiftDataReader.schemaSets(files, moduleName: "Fuzz") {
            for case let rule as any SwiftDataRule in RuleRegistry.all {
                _ = rule.check(set, context: SwiftDataContext())
            }
        }
    }
}
