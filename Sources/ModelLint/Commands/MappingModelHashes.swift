import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintGather

/// `modellint hashes X.xcmappingmodel [BUNDLE]`: what Core Data compares of a mapping model — the entity hashes its
/// linked entity mappings record for each side — and the pairs of versions it would be picked for, in the bundle
/// named or in every bundle of its repository. For users debugging "can't find mapping model" (134140).
enum MappingModelHashes {
    /// Whether a path names a mapping model (its folder or its `xcmapping.xml`).
    static func isMappingModel(_ path: String) -> Bool {
        path.hasSuffix(".xcmappingmodel") || path.hasSuffix(".xcmappingmodel/")
            || path.hasSuffix(".xcmappingmodel/xcmapping.xml")
    }

    static func run(_ path: String, bundlePaths: [String], hex: Bool, json: Bool, environment: CommandEnvironment)
        -> CommandOutput
    {
        var folder = PathTools.absolute(path, relativeTo: environment.workingDirectory)
        if folder.hasSuffix("/xcmapping.xml") { folder = (folder as NSString).deletingLastPathComponent }
        if folder.hasSuffix("/") { folder.removeLast() }
        let xml = folder + "/xcmapping.xml"
        guard FileReader.kind(at: xml) == .regular else {
            return .usageError("no mapping model at \(path): \(ReportText.escaped(xml)) is not a file")
        }
        let shown = PathTools.display(folder, relativeTo: environment.workingDirectory)
        let name = ((folder as NSString).lastPathComponent as NSString).deletingPathExtension
        let file = MappingModelReader.file(at: xml, displayPath: shown)
        let bundles: [ModelBundle]
        do {
            bundles = try self.bundles(bundlePaths, near: folder, environment: environment)
        } catch {
            return .usageError("\(error)")
        }
        let sides: [Side] = [
            Side(label: "source", snapshot: file.sourceHashes, names: file.linkedSourceNames),
            Side(label: "destination", snapshot: file.destinationHashes, names: file.linkedDestinationNames),
        ]
        let matches = bundles.map { bundle in
            (bundle, MappingModelReader.match(file, name: name, path: shown, versions: bundle.readableVersions))
        }
        let report = Report(shown: shown, file: file, sides: sides, matches: matches, hex: hex)
        return CommandOutput(exitCode: 0, standardOutput: json ? report.json : report.text)
    }

    /// One side of a mapping model: its embedded model's hashes and the entities its linked mappings name.
    struct Side {
        var label: String
        var snapshot: EmbeddedModelHashes?
        var names: [String]?

        /// The hashes Core Data compares: the linked mappings' entities, else the whole embedded model.
        var recorded: [(String, [UInt8])] {
            guard let snapshot else { return [] }
            let hashes = names.map { MappingModelReader.recorded($0, in: snapshot) } ?? snapshot.entities
            return hashes.sorted { CoreDataHash.precedes($0.key, $1.key) }.map { ($0.key, $0.value) }
        }
    }

    /// What `hashes` prints about a mapping model, as JSON or text.
    struct Report {
        var shown: String
        var file: MappingModelFile
        var sides: [Side]
        var matches: [(ModelBundle, MappingModelReader.Match?)]
        var hex: Bool

        func encode(_ bytes: [UInt8]) -> String { HashesCommand.encode(bytes, hex: hex) }

        var json: String {
            var pairs: [(String, JSONValue)] = [
                ("mappingModel", .string(shown)), ("encoding", .string(hex ? "hex" : "base64")),
                ("sourcePath", file.sourcePath.map(JSONValue.string) ?? .null),
                ("destinationPath", file.destinationPath.map(JSONValue.string) ?? .null),
                ("linkedEntityMappings", file.linked.map { .number(Double($0.count)) } ?? .null),
            ]
            for side in sides {
                pairs.append(
                    (
                        side.label + "Hashes",
                        side.snapshot == nil ? .null : .object(side.recorded.map { ($0.0, .string(encode($0.1))) })
                    ))
            }
            let bundles = matches.map { bundle, match -> JSONValue in
                var item: [(String, JSONValue)] = [("bundle", .string(bundle.path))]
                var (sources, destinations): ([String], [String]) = ([], [])
                if case .maps(let mapping)? = match {
                    (sources, destinations) = (mapping.sources, mapping.destinations)
                }
                item.append(("sources", .array(sources.map(JSONValue.string))))
                item.append(("destinations", .array(destinations.map(JSONValue.string))))
                return .object(item)
            }
            pairs.append(("bundles", .array(bundles)))
            return JSONValue.object(pairs).serialized() + "\n"
        }

        var text: String {
            var text = "\(ReportText.escaped(shown))\n"
            text +=
                "  paths (the editor's memory; Core Data goes by hashes): \(ReportText.escaped(file.sourcePath ?? "none")) -> \(ReportText.escaped(file.destinationPath ?? "none"))\n"
            if let linked = file.linked {
                text += "  linked entity mappings: \(linked.count)\n"
            } else {
                text += "  linked entity mappings: none listed, so the embedded models are compared whole\n"
            }
            for side in sides { text += hashes(of: side) }
            text += "\n"
            if matches.isEmpty { text += "  no bundle found to match it against; name one after the mapping model\n" }
            for (bundle, match) in matches { text += picked(in: bundle, match) }
            return text
        }

        func hashes(of side: Side) -> String {
            guard side.snapshot != nil else { return "\n  \(side.label): no embedded model modellint can read\n" }
            let hashes = side.recorded
            var text = "\n  \(side.label) hashes Core Data compares (a subset of the \(side.label) model's):\n"
            if hashes.isEmpty { text += "    none: it is never picked\n" }
            let width = hashes.map { ReportText.escaped($0.0).count }.max() ?? 0
            for (entity, hash) in hashes {
                let label = ReportText.escaped(entity)
                text += "    " + label + String(repeating: " ", count: width - label.count) + "  " + encode(hash) + "\n"
            }
            return text
        }

        /// The pairs of a bundle's versions it is picked for, or why none.
        func picked(in bundle: ModelBundle, _ match: MappingModelReader.Match?) -> String {
            let bundleName = ReportText.escaped(bundle.path)
            guard case .maps(let mapping)? = match else {
                var why: [String] = []
                if case .unmatched(let unmatched)? = match {
                    for (label, matches, claimed, differences) in [
                        ("source", unmatched.sourceMatches, unmatched.claimedSource, unmatched.sourceDifferences),
                        (
                            "destination", unmatched.destinationMatches, unmatched.claimedDestination,
                            unmatched.destinationDifferences
                        ),
                    ] where matches.isEmpty {
                        let since =
                            zip([claimed], [differences]).compactMap { claimed, differences in
                                claimed.flatMap { name in
                                    differences.map { " (\(ReportText.escaped(name)): \(ReportText.list($0)))" }
                                }
                            }.first ?? ""
                        why.append("no version has its \(label) hashes\(since)")
                    }
                }
                return
                    "  \(bundleName): picked for no pair of its versions\(why.isEmpty ? "" : ": " + why.joined(separator: "; "))\n"
            }
            let pairs = mapping.forwardPairs(along: bundle.readableVersions.map(\.name)).map {
                "\(ReportText.escaped($0.from)) -> \(ReportText.escaped($0.to))"
            }
            return "  \(bundleName): picked for \(pairs.isEmpty ? "no forward pair" : ReportText.list(pairs))\n"
        }
    }

    /// The bundles named, else the bundles of the nearest folder above the mapping model that holds any (at most
    /// four folders up, never above its git work tree).
    static func bundles(_ paths: [String], near folder: String, environment: CommandEnvironment) throws
        -> [ModelBundle]
    {
        func load(_ selections: [BundleFinder.Selection]) -> [ModelBundle] {
            selections.map {
                BundleLoader.load(bundleURL: URL(fileURLWithPath: $0.absolutePath), displayPath: $0.displayPath)
            }
        }
        let finder = BundleFinder(workingDirectory: environment.workingDirectory)
        if !paths.isEmpty { return load(try finder.selections(for: paths).bundles) }
        let top = (try? RepositoryCache().repository(containing: folder))?.toplevel
        var search = (folder as NSString).deletingLastPathComponent
        for _ in 0..<4 {
            let found = (try? finder.selections(for: [search]).bundles) ?? []
            if !found.isEmpty { return load(found) }
            guard search != top, search != "/" else { break }
            search = (search as NSString).deletingLastPathComponent
        }
        return []
    }
}
