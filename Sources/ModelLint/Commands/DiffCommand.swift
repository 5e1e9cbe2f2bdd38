import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintEngine
import ModelLintReporting
import ModelLintGather

/// `modellint diff BUNDLE [FROM [TO]]`: every change between two versions, marked with how Core Data treats it.
package enum DiffCommand {
    enum Format: String, CaseIterable { case text, json, markdown }
    static let format = ValueOption<Format>("--format", value: "F", help: "text (default), json or markdown")
    static let config = configOption("configuration file (for versionOrder); default: nearest .modellint.json")
    static let verbose = Flag("--verbose", help: "also give each changed entity's Core Data version hash, old -> new")

    package static let options = [format.spec, config.spec, verbose.spec] + ReportOptions.colorSpecs + [helpFlag.spec]

    package static let help = ArgumentParser.helpText(
        usage: "modellint diff BUNDLE|SWIFT-FOLDER [FROM [TO]] [--format text|json|markdown] [--verbose]",
        summary: """
            Show every change between two versions of a bundle (or two SwiftData schemas of a folder's Swift files),
            grouped by entity, each marked with how Core Data treats it: no migration, lightweight, lightweight but
            data-dependent, needs custom migration, data loss.
            An entity is "no migration" exactly when its Core Data version hash is unchanged.
            Default: the version before the current one -> the current one. FROM alone compares FROM -> current.
            """,
        options: options)

    package static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "diff")
        } catch {
            return .usageError("\(error)")
        }
        if parsed[helpFlag] { return CommandOutput(exitCode: 0, standardOutput: help) }
        guard (1...3).contains(parsed.positionals.count) else {
            return .usageError("diff takes a bundle and up to two version names; see 'modellint diff --help'")
        }
        let bundle: ModelBundle
        // SwiftData schemas: entities whose shape could not be read, per schema, and why.
        let unknown: [String: [String: String]]
        do {
            (bundle, unknown) = try load(parsed.positionals[0], config: parsed[config], environment: environment)
        } catch {
            return .usageError("\(error)")
        }
        let (from, to, old, new): (ModelVersion, ModelVersion, Model, Model)
        switch pair(in: bundle, named: Array(parsed.positionals.dropFirst())) {
        case .success(let found): (from, to, old, new) = found
        case .failure(let error): return .usageError(error.message)
        }
        let diff = ModelDiff(
            from: VersionRef(name: from.name, contentsPath: from.contentsPath, model: old),
            to: VersionRef(name: to.name, contentsPath: to.contentsPath, model: new), isAdjacent: true)
        var entries = ChangeClassifier.entries(of: diff, showingHashes: parsed[verbose])
        // An entity a schema leaves unknown has no hash to classify its changes by: they are left out, and said so.
        let unread = [from.name, to.name].flatMap { version in
            (unknown[version] ?? [:]).sorted { $0.key < $1.key }.map {
                (version: version, entity: $0.key, why: $0.value)
            }
        }
        let warnings = unread.map {
            "modellint: \(ReportText.escaped($0.version)).\(ReportText.escaped($0.entity)) could not be read whole (\(ReportText.escaped($0.why))): its changes are not classified\n"
        }.joined()
        let unreadEntities = Set(unread.map(\.entity))
        entries.removeAll { unreadEntities.contains($0.entity) }
        let text: String
        switch parsed[format] ?? .text {
        case .json: text = DiffReporter.json(entries, bundle: bundle.path, from: from.name, to: to.name)
        case .markdown: text = DiffReporter.markdown(entries, bundle: bundle.path, from: from.name, to: to.name)
        case .text:
            text = DiffReporter.text(
                entries, bundle: bundle.path, from: from.name, to: to.name,
                useColor: ReportOptions.colorWanted(ReportOptions.color(parsed), environment: environment))
        }
        return CommandOutput(exitCode: 0, standardOutput: text, standardError: warnings)
    }

    /// The versions to compare: both named; or the one named and the current one; or the current one and the one
    /// before it (the current version as check judges it). A usage error names what is missing.
    static func pair(in bundle: ModelBundle, named: [String]) -> Result<
        (ModelVersion, ModelVersion, Model, Model), UsageError
    > {
        let readable = bundle.versions.filter { $0.model != nil }
        func find(_ name: String) -> ModelVersion? { SingleBundle.version(name, in: bundle) }
        let to: ModelVersion?
        let from: ModelVersion?
        if named.count == 2 {
            from = find(named[0])
            to = find(named[1])
        } else {
            let line = VersionLine(bundle)
            to = line.current.flatMap { current in readable.first { $0.name == current.name } }
            if let name = named.first {
                from = find(name)
            } else {
                from = line.currentPosition > 0 ? readable[line.currentPosition - 1] : nil
            }
        }
        let names = bundle.versions.map(\.name).joined(separator: ", ")
        for (requested, found) in zip(named, named.count == 2 ? [from, to] : [from]) where found == nil {
            let meant =
                Spelling.closest(to: requested, in: bundle.versions.map(\.name)).map { "did you mean \($0)? " } ?? ""
            return .failure(
                UsageError("\(bundle.shownName) has no version named '\(requested)' (\(meant)versions: \(names))"))
        }
        guard let from, let to else {
            return .failure(UsageError("\(bundle.path) has fewer than two readable versions; nothing to compare"))
        }
        guard let old = from.model, let new = to.model else {
            return .failure(
                UsageError(
                    "\(from.model == nil ? from.name : to.name) cannot be read; run modellint check \(bundle.path) for why"
                ))
        }
        return .success((from, to, old, new))
    }

    /// The bundle (or SwiftData schema set) named, and per schema the entities whose shape could not be read.
    static func load(_ path: String, config: String?, environment: CommandEnvironment) throws -> (
        ModelBundle, [String: [String: String]]
    ) {
        let configuration: Configuration
        do {
            configuration = try CheckCommand.loadConfiguration(config, environment: environment)
        } catch {
            throw UsageError("configuration error: \(error)")
        }
        let (bundle, set) = try SingleBundle.loadOrSchemaSet(
            path, configuration: configuration, environment: environment)
        var unknown: [String: [String: String]] = [:]
        for schema in set?.schemas ?? [] {
            unknown[schema.name] = schema.unknownEntities
            for name in schema.unresolvedModels { unknown[schema.name, default: [:]][name] = "not resolved" }
        }
        return (bundle, unknown)
    }
}
