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
        let configuration: Configuration
        do {
            configuration = try CheckCommand.loadConfiguration(parsed[config], environment: environment)
        } catch {
            return .usageError("configuration error: \(error)")
        }
        let bundle: ModelBundle
        // SwiftData schemas: entities whose shape could not be read, per schema, and why.
        var unknown: [String: [String: String]] = [:]
        do {
            let (loaded, set) = try SingleBundle.loadOrSchemaSet(
                parsed.positionals[0], configuration: configuration, environment: environment)
            bundle = loaded
            for schema in set?.schemas ?? [] {
                unknown[schema.name] = schema.unknownEntities
                for name in schema.unresolvedModels { unknown[schema.name, default: [:]][name] = "not resolved" }
            }
        } catch {
            return .usageError("\(error)")
        }

        let readable = bundle.versions.filter { $0.model != nil }
        func find(_ name: String) -> ModelVersion? { SingleBundle.version(name, in: bundle) }
        let to: ModelVersion?
        let from: ModelVersion?
        if parsed.positionals.count == 3 {
            from = find(parsed.positionals[1])
            to = find(parsed.positionals[2])
        } else {
            // The current version as check judges it (VersionLine), and by default the one before it.
            let line = VersionLine(bundle)
            to = line.current.flatMap { current in readable.first { $0.name == current.name } }
            if parsed.positionals.count == 2 {
                from = find(parsed.positionals[1])
            } else {
                from = line.currentPosition > 0 ? readable[line.currentPosition - 1] : nil
            }
        }
        let names = bundle.versions.map(\.name).joined(separator: ", ")
        for (requested, found) in zip(
            parsed.positionals.dropFirst(), parsed.positionals.count == 3 ? [from, to] : [from]) where found == nil
        {
            let meant =
                Spelling.closest(to: requested, in: bundle.versions.map(\.name)).map { "did you mean \($0)? " } ?? ""
            return .usageError(
                "\(bundle.shownName) has no version named '\(requested)' (\(meant)versions: \(names))")
        }
        guard let from, let to else {
            return .usageError("\(bundle.path) has fewer than two readable versions; nothing to compare")
        }
        guard let old = from.model, let new = to.model else {
            return .usageError(
                "\(from.model == nil ? from.name : to.name) cannot be read; run modellint check \(bundle.path) for why")
        }
        let diff = ModelDiff(
            from: VersionRef(name: from.name, contentsPath: from.contentsPath, model: old),
            to: VersionRef(name: to.name, contentsPath: to.contentsPath, model: new), isAdjacent: true)
        var entries = ChangeClassifier.entries(of: diff, showingHashes: parsed[verbose])
        // An entity a schema leaves unknown has no hash to classify its changes by: they are left out, and said so.
        var warnings = ""
        let unread = [from.name, to.name].flatMap { version in
            (unknown[version] ?? [:]).sorted { $0.key < $1.key }.map {
                (version: version, entity: $0.key, why: $0.value)
            }
        }
        for item in unread {
            warnings +=
                "modellint: \(ReportText.escaped(item.version)).\(ReportText.escaped(item.entity)) could not be read whole (\(ReportText.escaped(item.why))): its changes are not classified\n"
        }
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
}
