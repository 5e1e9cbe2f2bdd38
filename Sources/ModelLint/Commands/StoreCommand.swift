import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintSwiftData
import ModelLintDiff
import ModelLintHistory
import ModelLintStores
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintGather

/// `modellint store STORE [BUNDLE]`: which version wrote a SQLite store, and what migrating it to the current
/// version does. Read-only: the store and its `-wal` are opened for reading, nothing else is touched.
package enum StoreCommand {
    static let config = configOption(
        "configuration file (rules, versionOrder, migration); default: nearest .modellint.json")
    static let migration = migrationOption("how the app migrates (default: the configuration's, else direct)")

    package static let options: [OptionSpec] =
        [ReportOptions.format.spec, config.spec, migration.spec] + ReportOptions.trailingSpecs

    package static let help = ArgumentParser.helpText(
        usage: "modellint store STORE [BUNDLE] [options]",
        summary: """
            Read a Core Data SQLite store's metadata (applying its -wal, read-only) and say which version of the \
            bundle wrote it (its entity hashes equal that version's), and what migrating it to the current version \
            does: nothing, or the change findings of that migration (store-migration-fails when one is an error). \
            A store no version wrote is store-version-unknown, with the nearest version. With no BUNDLE, the bundle \
            under the current directory whose version wrote it.
            """,
        options: options)

    package static func run(_ arguments: [String], environment: CommandEnvironment, streams: CommandStreams) -> Int32 {
        func fail(_ message: String) -> Int32 {
            streams.standardError.write("modellint: \(message)\n")
            return CommandOutput.usage
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "store")
        } catch {
            return fail("\(error)")
        }
        let report = ReportOptions(parsed)
        if parsed[helpFlag] {
            streams.standardOutput.write(help)
            return 0
        }
        guard (1...2).contains(parsed.positionals.count) else {
            return fail("store takes a store file and optionally its bundle; see 'modellint store --help'")
        }
        let absolute = PathTools.absolute(parsed.positionals[0], relativeTo: environment.workingDirectory)
        let display = PathTools.display(absolute, relativeTo: environment.workingDirectory)
        let (configuration, metadata, located): (Configuration, StoreMetadata, Located)
        do {
            configuration = try CheckCommand.loadConfiguration(parsed[config], environment: environment)
        } catch {
            return fail("configuration error: \(error)")
        }
        do {
            metadata = try StoreMetadata.read(path: absolute)
        } catch {
            return fail(ReportText.escaped("\(error)").replacingOccurrences(of: absolute, with: display))
        }
        do {
            located = try locate(
                metadata, named: parsed.positionals.dropFirst().first, configuration: configuration,
                environment: environment)
        } catch {
            return fail("\(error)")
        }
        let (bundle, swiftSet) = (located.bundle, located.swiftSet)
        let subject = storeSubject(
            metadata, path: display, located: located, configuration: configuration, environment: environment)
        // SwiftData migrates stage by stage.
        let migrationMode = swiftSet != nil ? MigrationMode.progressive : parsed[migration]
        let findings = Engine(configuration: configuration, migration: migrationMode).run(.store(subject))
        if report.format == nil || report.format == .text {
            let migrating = findings.diagnostics.filter { $0.fromVersion != nil }
            streams.standardOutput.write(
                describe(
                    metadata, path: display, bundle: bundle, found: parsed.positionals.count == 1,
                    migration: migrationMode ?? configuration.migration, migrationFindings: migrating,
                    unknown: Dictionary(
                        (swiftSet?.schemas ?? []).map { ($0.name, Set($0.unknownEntities.keys)) },
                        uniquingKeysWith: { a, b in a.union(b) })))
        }
        report.write(findings, to: streams.standardOutput, environment: environment)
        return report.exitCode(for: findings)
    }

    /// The bundle a store is judged against, and the SwiftData schema set it is, when it is one.
    struct Located {
        var bundle: ModelBundle
        var swiftSet: SwiftSchemaSet?
        /// The bundles under the working directory, when they were read to find it.
        var here: [ModelBundle]?
    }

    /// The bundle named (or, for a folder of Swift files, the schema set whose schema wrote the store, else the only
    /// one), else the one under the working directory whose version wrote the store.
    static func locate(
        _ metadata: StoreMetadata, named: String?, configuration: Configuration, environment: CommandEnvironment
    ) throws -> Located {
        var here: [ModelBundle]?
        var bundle: ModelBundle
        // SwiftData schema sets: what a bundle's mapping models are to it, their custom stages are.
        var swiftSets: [SwiftSchemaSet] = []
        if let named {
            do {
                bundle = try SingleBundle.load(named, configuration: configuration, environment: environment)
            } catch let error as UsageError {
                swiftSets = HashesCommand.swiftDataSets(named, environment: environment)
                guard !swiftSets.isEmpty else { throw error }
                bundle = try findBundle(for: metadata, among: swiftSets.map(\.bundle))
            }
        } else {
            swiftSets = HashesCommand.swiftDataSets(".", environment: environment)
            here = try bundlesHere(configuration: configuration, environment: environment)
            bundle = try findBundle(for: metadata, among: (here ?? []) + swiftSets.map(\.bundle))
        }
        let swiftSet = swiftSets.first { $0.bundle.path == bundle.path && $0.name == bundle.name }
        return Located(bundle: bundle, swiftSet: swiftSet, here: here)
    }

    /// What the engine judges: the store against its bundle, with the mapping models `check` honours for it (Core
    /// Data uses one for exactly its pair) and, for a merged model's store, the other bundles here, which may hold
    /// the rest of it.
    static func storeSubject(
        _ metadata: StoreMetadata, path display: String, located: Located, configuration: Configuration,
        environment: CommandEnvironment
    ) -> Engine.StoreSubject {
        let bundle = located.bundle
        let bundlePath = PathTools.absolute(bundle.path, relativeTo: environment.workingDirectory)
        let mappingModels =
            located.swiftSet?.customStages
            ?? RepositoryFiles().matchedMappingModels(
                for: bundlePath, versions: bundle.readableVersions, configuredFolders: configuration.mappingModels,
                display: { $0 }
            ).maps
        var others: [ModelBundle] = []
        if metadata.matchingVersions(bundle.readableVersions).isEmpty,
            metadata.mergedFrom(bundle.readableVersions) != nil
        {
            let here =
                located.here ?? (try? bundlesHere(configuration: configuration, environment: environment)) ?? []
            others = here.filter { PathTools.absolute($0.path, relativeTo: environment.workingDirectory) != bundlePath }
        }
        return Engine.StoreSubject(
            metadata: metadata, path: display, bundle: bundle,
            settings: configuration.settings(forBundleAt: bundlePath), mappingModels: mappingModels,
            otherBundles: others)
    }

    /// The store's own story, before the findings. `found`: the bundle was found, not named; `migrationFindings`:
    /// what migrating it finds.
    package static func describe(
        _ metadata: StoreMetadata, path: String, bundle: ModelBundle, found: Bool = false,
        migration: MigrationMode = .direct, migrationFindings: [Diagnostic] = [], unknown: [String: Set<String>] = [:]
    ) -> String {
        let versions = bundle.readableVersions
        // A SwiftData schema whose entities the source leaves unknown has no hashes to claim: it is named as
        // written by nothing, and its unread entities are said.
        let matching = metadata.matchingVersions(versions).map(\.name).filter { unknown[$0]?.isEmpty ?? true }
        var lines = [
            "\(ReportText.escaped(path)): a Core Data \(ReportText.escaped(metadata.storeType ?? "SQLite")) store\(metadata.usedWAL ? " (metadata read from its -wal)" : "")"
        ]
        for version in versions where !(unknown[version.name]?.isEmpty ?? true) {
            let names = unknown[version.name]!.sorted().map { $0.isEmpty ? "a model type the schema lists" : $0 }
            lines.append(
                "  not compared: \(ReportText.escaped(version.name))'s \(ReportText.list(names.map(ReportText.escaped))) cannot be read from the source, so no hash of it is claimed"
            )
        }
        let merged = matching.isEmpty ? metadata.mergedFrom(versions) : nil
        lines.append(
            "  written by: "
                + (merged.map {
                    "a model merged from \(ReportText.escaped($0.version.name)) and \(ReportText.list($0.others.map(ReportText.escaped)))"
                }
                    ?? (matching.isEmpty
                        ? "no version of \(ReportText.escaped(bundle.path))"
                        : matching.map(ReportText.escaped).joined(separator: ", ")))
        )
        if found { lines.append("  bundle: \(ReportText.escaped(bundle.path)) (found under the current directory)") }
        if let framework = metadata.frameworkVersion { lines.append("  NSPersistenceFrameworkVersion: \(framework)") }
        if !metadata.versionIdentifiers.isEmpty {
            lines.append(
                "  version identifiers: " + metadata.versionIdentifiers.map(ReportText.escaped).joined(separator: ", "))
        }
        if let uuid = metadata.uuid { lines.append("  store UUID: \(ReportText.escaped(uuid))") }
        if let migrating = migrationLine(
            matching: matching, bundle: bundle, migration: migration, migrationFindings: migrationFindings)
        {
            lines.append(migrating)
        }
        // No version wrote it: the store's own cached model, diffed against the current version as if it were one.
        if matching.isEmpty, merged == nil, let cached = metadata.cachedModel, let current = bundle.currentVersion,
            let model = current.model
        {
            let diff = ModelDiff(
                from: VersionRef(name: "the store's model (Z_MODELCACHE)", contentsPath: path, model: cached),
                to: VersionRef(name: current.name, contentsPath: current.contentsPath, model: model), isAdjacent: true)
            lines.append("")
            lines += DiffReporter.text(
                ChangeClassifier.entries(of: diff), bundle: bundle.path, from: "the store's model (Z_MODELCACHE)",
                to: current.name
            )
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// What migrating the store to the current version does: nothing (equal hashes), one hop or every step with
    /// what it meets, or nothing at all for a store of a later version; nil when no version wrote it.
    static func migrationLine(
        matching: [String], bundle: ModelBundle, migration: MigrationMode, migrationFindings: [Diagnostic]
    ) -> String? {
        let line = VersionLine(bundle)
        guard let current = line.current else { return nil }
        if matching.contains(current.name) {
            return "  migrating to \(ReportText.escaped(current.name)) (current): nothing to do, the hashes are equal"
        }
        guard let from = matching.first, let start = line.versions.firstIndex(where: { $0.name == from }) else {
            return nil
        }
        if start < line.currentPosition {
            let steps = line.currentPosition - start
            let how = migration == .direct || steps == 1 ? "one hop" : "\(steps) steps (progressive migration)"
            let counts = Severity.allCases.reversed().compactMap { severity -> String? in
                let n = migrationFindings.filter { $0.severity == severity }.count
                return n == 0 ? nil : "\(n) \(severity.rawValue)\(n == 1 ? "" : "s")"
            }
            let outcome = counts.isEmpty ? "nothing found" : counts.joined(separator: ", ")
            return "  migrating to \(ReportText.escaped(current.name)) (current): \(how), \(outcome)"
        }
        if start > line.currentPosition {
            // Core Data migrates forward only: a store of a later version does not open with the current one.
            return
                "  newer than \(ReportText.escaped(current.name)) (current): Core Data does not migrate a store back to an older model, so the app does not open it"
        }
        return nil
    }

    /// Every bundle under the working directory, loaded.
    static func bundlesHere(configuration: Configuration, environment: CommandEnvironment) throws -> [ModelBundle] {
        try BundleFinder(workingDirectory: environment.workingDirectory).bundles(for: []).map { selection in
            BundleLoader.load(
                bundleURL: URL(fileURLWithPath: selection.absolutePath), displayPath: selection.displayPath,
                versionOrder: configuration.settings(forBundleAt: selection.absolutePath)?.versionOrder)
        }
    }

    /// With no bundle named: among the bundles under the working directory, the one with a version that wrote the
    /// store; else one whose version is wholly in it (a merged model's store); else the only one.
    package static func findBundle(for metadata: StoreMetadata, among bundles: [ModelBundle]) throws -> ModelBundle {
        if let writer = bundles.first(where: { bundle in
            bundle.versions.contains { $0.model?.versionHashes.entities == metadata.entityHashes }
        }) {
            return writer
        }
        // A merged model's store: the bundle whose version is wholly in it (the most entities).
        if let part = bundles.compactMap({ bundle in
            metadata.mergedFrom(bundle.readableVersions).map { (bundle, $0.version.model.entities.count) }
        }).max(by: { $0.1 < $1.1 })?.0 {
            return part
        }
        guard bundles.count == 1 else {
            throw UsageError(
                bundles.isEmpty
                    ? "no .xcdatamodeld bundles found here; name the store's bundle"
                    : "no bundle here has a version that wrote the store; name its bundle")
        }
        return bundles[0]
    }
}
