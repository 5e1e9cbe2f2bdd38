import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintCompiled
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// `modellint verify-build MOMD [BUNDLE]`: the compiled model (and the `.cdm` files beside it) against its source.
package enum VerifyBuildCommand {
    static let config = configOption(
        "configuration file (rules, retired, versionOrder); default: nearest .modellint.json")

    package static let options: [OptionSpec] = [ReportOptions.format.spec, config.spec] + ReportOptions.trailingSpecs

    package static let help = ArgumentParser.helpText(
        usage: "modellint verify-build MOMD [BUNDLE] [options]",
        summary: """
            Check a compiled model (.momd, from a build product or committed as a test fixture) against its source
            bundle through Core Data's own entity version hashes: its current version, that every version was
            compiled and is up to date, renaming identifiers, retired properties, and the compiled mapping models
            (.cdm) beside it. With no BUNDLE, the bundle of the same name is searched from the .momd's folder upward.
            """,
        options: options)

    package static func run(_ arguments: [String], environment: CommandEnvironment, streams: CommandStreams) -> Int32 {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "verify-build")
        } catch {
            return fail("\(error)", streams)
        }
        let report = ReportOptions(parsed)
        if parsed[helpFlag] {
            streams.standardOutput.write(help)
            return 0
        }
        guard (1...2).contains(parsed.positionals.count) else {
            return fail(
                "verify-build takes a compiled .momd and optionally its bundle; see 'modellint verify-build --help'",
                streams)
        }
        let configuration: Configuration
        do {
            configuration = try CheckCommand.loadConfiguration(parsed[config], environment: environment)
        } catch {
            return fail("configuration error: \(error)", streams)
        }
        let momd = PathTools.absolute(parsed.positionals[0], relativeTo: environment.workingDirectory)
        let build: CompiledModel
        do {
            build = try CompiledModelReader.read(
                momd: momd, displayPath: PathTools.display(momd, relativeTo: environment.workingDirectory))
        } catch {
            return fail("\(error)", streams)
        }
        // An unreadable compiled file is bad input, named, never a silent pass.
        let problems = build.versions.compactMap(\.problem) + build.mappings.compactMap(\.problem)
        guard problems.isEmpty else {
            return fail(problems.map(ReportText.escaped).joined(separator: "\nmodellint: "), streams)
        }
        let bundle: ModelBundle
        do {
            let path =
                try parsed.positionals.count == 2
                ? parsed.positionals[1] : findBundle(for: momd, environment: environment)
            bundle = try SingleBundle.load(path, configuration: configuration, environment: environment)
        } catch {
            return fail("\(error)", streams)
        }
        let absolute = PathTools.absolute(bundle.path, relativeTo: environment.workingDirectory)
        let findings = Engine(configuration: configuration).run(
            .build(
                Engine.BuildSubject(
                    build: build, bundle: bundle, settings: configuration.settings(forBundleAt: absolute))))
        if report.format == nil || report.format == .text {
            streams.standardOutput.write(describe(build, bundle: bundle))
        }
        report.write(findings, to: streams.standardOutput, environment: environment)
        return report.exitCode(for: findings)
    }

    /// What the build holds, before the findings: each compiled version and whose hashes it has, and each
    /// compiled mapping model and the pairs of versions Core Data would use it for.
    package static func describe(_ build: CompiledModel, bundle: ModelBundle) -> String {
        let source = bundle.readableVersions
        var lines = [
            "\(ReportText.escaped(build.path)): a compiled model of \(ReportText.escaped(bundle.path))"
                + (build.currentVersion.map { ", current version \(ReportText.escaped($0))" } ?? "")
        ]
        for version in build.versions {
            let name = ReportText.escaped(version.name)
            guard version.hasFile else {
                lines.append("  \(name): listed in VersionInfo.plist, no .mom")
                continue
            }
            let hashes = version.hashes
            let whose = source.filter { $0.model.versionHashes.entities == hashes }.map(\.name)
            let says =
                whose.contains(version.name)
                ? "the hashes of \(name)"
                : whose.first.map { "the hashes of \(ReportText.escaped($0)), not of \(name)" }
                    ?? "the hashes of no version"
            lines.append("  \(name).mom: \(says)")
        }
        for mapping in build.mappings where mapping.problem == nil {
            let (sources, destinations) = mapping.matchingVersions(source)
            let pairs = sources.flatMap { from in destinations.filter { $0 != from }.map { "\(from) -> \($0)" } }
            lines.append(
                "  \(ReportText.escaped((mapping.path as NSString).lastPathComponent)): "
                    + (pairs.isEmpty
                        ? "maps no pair of versions"
                        : "maps " + pairs.map(ReportText.escaped).joined(separator: ", ")))
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    private static func fail(_ message: String, _ streams: CommandStreams) -> Int32 {
        streams.standardError.write("modellint: \(message)\n")
        return CommandOutput.usage
    }

    /// `Name.xcdatamodeld` for `Name.momd`: searched in the `.momd`'s folder and each folder above it, up to the
    /// repository's top (the first folder holding `.git`); for a build product outside the working directory's
    /// tree, in the working directory.
    package static func findBundle(for momd: String, environment: CommandEnvironment) throws -> String {
        let file = momd.split(separator: "/").last.map(String.init) ?? momd
        let stem =
            file.hasSuffix(".momd")
            ? String(file.dropLast(5)) : file.hasSuffix(".mom") ? String(file.dropLast(4)) : file
        let name = stem + ".xcdatamodeld"
        var folders: [String] = []
        var folder = CompiledModelReader.folder(of: momd)
        while !folder.isEmpty {
            folders.append(folder)
            if FileReader.kind(at: folder + "/.git") != nil || folder == "/" { break }
            folder = CompiledModelReader.folder(of: folder)
        }
        let workingDirectory = PathTools.standardize(environment.workingDirectory)
        if !folders.contains(workingDirectory) { folders.append(workingDirectory) }
        let finder = BundleFinder(workingDirectory: environment.workingDirectory)
        for folder in folders {
            let matches = try finder.bundles(for: [folder]).filter {
                $0.absolutePath.split(separator: "/").last.map(String.init) == name
            }
            if matches.count == 1 { return matches[0].absolutePath }
            if matches.count > 1 {
                throw UsageError(
                    "\(matches.count) bundles named \(name) under \(folder); name the one \(file) was built from")
            }
        }
        throw UsageError(
            "no \(name) found from \(PathTools.display(momd, relativeTo: environment.workingDirectory)) upward; name the bundle it was built from"
        )
    }
}
