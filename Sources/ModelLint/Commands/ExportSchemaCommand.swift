import Foundation
import ModelLintSupport
import ModelLintRepair
import ModelLintModel
import ModelLintSwiftData
import ModelLintRules
import ModelLintGather

/// `modellint export-schema PATH [--output DIR]`: each SwiftData schema set of the Swift files under PATH written
/// as an Xcode model bundle, `DIR/<Plan>.xcdatamodeld/<Schema>.xcdatamodel/contents`, so it can be diffed, locked
/// and opened in Xcode. An existing bundle is never overwritten.
package enum ExportSchemaCommand {
    static let output = ValueOption<String>(
        "--output", value: "DIR", help: "where the bundles are written (default: .)")

    package static let options = [output.spec, helpFlag.spec]

    package static let help = ArgumentParser.helpText(
        usage: "modellint export-schema PATH [--output DIR]",
        summary: """
            Write the SwiftData schemas declared in the Swift files under PATH (a folder, or a .swift file's folder) \
            as Xcode model bundles: one .xcdatamodeld per plan (or module), one version per schema in the plan's \
            order, the newest current. An entity whose shape cannot be read from the source is written as far as it \
            is known and named on standard error. Existing bundles are not overwritten.
            """,
        options: options)

    package static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "export-schema")
        } catch {
            return .usageError("\(error)")
        }
        if parsed[helpFlag] { return CommandOutput(exitCode: 0, standardOutput: help) }
        guard parsed.positionals.count == 1 else {
            return .usageError("export-schema takes one folder of Swift files; see 'modellint export-schema --help'")
        }
        let sets = HashesCommand.swiftDataSets(parsed.positionals[0], environment: environment)
        guard !sets.isEmpty else {
            return .usageError("no SwiftData schemas found in \(ReportText.escaped(parsed.positionals[0]))")
        }
        let folder = PathTools.absolute(parsed[output] ?? ".", relativeTo: environment.workingDirectory)
        guard FileReader.kind(at: folder) == .directory else {
            return .usageError("\(ReportText.escaped(parsed[output] ?? ".")): no such directory")
        }
        var written: [String] = []
        var warnings = ""
        for set in sets {
            let bundle = folder + "/" + set.name + ".xcdatamodeld"
            let shown = PathTools.display(bundle, relativeTo: environment.workingDirectory)
            guard !FileReader.entryExists(at: bundle) else {
                return CommandOutput(
                    exitCode: CommandOutput.usage,
                    standardOutput: written.map { "wrote \($0)\n" }.joined(),
                    standardError:
                        "modellint: \(ReportText.escaped(shown)) exists; export-schema does not overwrite it\n")
            }
            do {
                warnings += try write(set, to: bundle, in: folder)
            } catch {
                return CommandOutput(
                    exitCode: CommandOutput.usage, standardOutput: written.map { "wrote \($0)\n" }.joined(),
                    standardError: "modellint: \(error)\n")
            }
            written.append("\(shown) (\(set.schemas.map(\.name).joined(separator: ", ")))")
        }
        return CommandOutput(
            exitCode: 0, standardOutput: written.map { "wrote \($0)\n" }.joined(), standardError: warnings)
    }

    /// Writes a schema set as a bundle: a version per schema, the last one current (the same pointer `new-version`
    /// writes). A file's folder inside the bundle is made first; every file is written whole or not at all. What
    /// could not be read is said.
    static func write(_ set: SwiftSchemaSet, to bundle: String, in folder: String) throws -> String {
        let confinement = FileWriter.Confinement.named(folder, workingDirectory: folder, followsLinks: false)
        var warnings = ""
        for schema in set.schemas {
            let version = bundle + "/" + schema.name + ".xcdatamodel"
            try FileManager.default.createDirectory(atPath: version, withIntermediateDirectories: true)
            try FileWriter.write(
                Data(ContentsWriter.contents(of: schema.model).utf8), to: version + "/contents",
                confinedTo: confinement)
            for (entity, why) in schema.unknownEntities.sorted(by: { $0.key < $1.key }) {
                warnings += "modellint: \(schema.name).\(entity) is written as far as it could be read (\(why))\n"
            }
        }
        if let current = set.schemas.last {
            try FileWriter.write(
                Data(CurrentVersionPointer.bytes(naming: current.name)), to: bundle + "/.xccurrentversion",
                confinedTo: confinement)
        }
        return warnings
    }
}
