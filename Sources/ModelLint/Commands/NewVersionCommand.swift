import Foundation

/// `modellint new-version BUNDLE [--name NAME]`: the safe way to change a shipped model — copy the current
/// version, make the copy current, edit the copy.
public enum NewVersionCommand {
    public static let options: [OptionSpec] = [
        OptionSpec("--name", value: "NAME", help: "the new version's name (default: the next in the bundle's pattern)"),
        OptionSpec("--help", help: "show this help"),
    ]

    public static let help = ArgumentParser.helpText(
        usage: "modellint new-version BUNDLE [--name NAME]",
        summary: """
            Copy the current version to a new one (Near 20 -> Near 21, Model9 -> Model10) and repoint .xccurrentversion
            at it. Refuses a name that exists. Nothing is left half-done: on any failure the bundle is as it was.
            """,
        options: options)

    /// The next name in the pattern of `name`, or nil when the pattern is ambiguous (`v1.10`).
    public static func nextName(after name: String) -> String? {
        let digits = name.reversed().prefix { $0.isASCIIDigit }
        guard !digits.isEmpty else { return name + " 2" }
        let stem = name.dropLast(digits.count)
        if stem.hasSuffix(".") || stem.hasSuffix("-") || stem.hasSuffix("_") { return nil }
        guard let number = Int(String(digits.reversed())) else { return nil }
        return stem + String(number + 1)
    }

    public static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "new-version")
        } catch {
            return .usageError("\(error)")
        }
        if parsed.flags.contains("--help") { return CommandOutput(exitCode: 0, standardOutput: help) }
        guard parsed.positionals.count == 1 else { return .usageError("new-version takes one bundle; see 'modellint new-version --help'") }
        let path = PathTools.absolute(parsed.positionals[0], relativeTo: environment.workingDirectory)
        var isDirectory: ObjCBool = false
        guard path.hasSuffix(".xcdatamodeld"), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .usageError("\(parsed.positionals[0]) is not a .xcdatamodeld bundle")
        }
        let bundleURL = URL(fileURLWithPath: path)
        let bundle = BundleLoader.load(bundleURL: bundleURL, displayPath: parsed.positionals[0])
        guard let current = bundle.currentVersion else { return .usageError("\(bundle.path) has no versions to copy") }
        guard let name = parsed.values["--name"] ?? nextName(after: current.name) else {
            return .usageError("cannot tell what comes after '\(current.name)'; give the name with --name")
        }
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { return .usageError("'\(name)' is not a usable version name") }
        guard !bundle.versions.contains(where: { $0.name.lowercased() == name.lowercased() }) else {
            return .usageError("\(bundle.path) already has a version named \(name)")
        }

        do {
            try create(version: name, from: current.name, in: bundleURL)
        } catch {
            return .usageError("could not add \(name) (\(error.localizedDescription)); \(bundle.path) is unchanged")
        }
        return CommandOutput(exitCode: 0, standardOutput: """
            created \(bundle.path)/\(name).xcdatamodel, a copy of \(current.name), and made it the current version.
            Make the model change in \(name); until then modellint reports it as redundant-version.
            If your project is generated (XcodeGen, Tuist), regenerate it, or the build keeps using \(current.name).

            """)
    }

    /// Copy into a hidden staging folder, rename into place, then replace the pointer atomically; undo the
    /// copy if the pointer cannot be written.
    static func create(version name: String, from source: String, in bundle: URL) throws {
        let fm = FileManager.default
        let staging = bundle.appendingPathComponent(".modellint-staging-\(UUID().uuidString)")
        let destination = bundle.appendingPathComponent(name + ".xcdatamodel")
        try fm.copyItem(at: bundle.appendingPathComponent(source + ".xcdatamodel"), to: staging)
        do {
            try fm.moveItem(at: staging, to: destination)
        } catch {
            try? fm.removeItem(at: staging)
            throw error
        }
        do {
            try Data(RuleExample.currentVersionPlist(naming: name).utf8)
                .write(to: bundle.appendingPathComponent(".xccurrentversion"), options: .atomic)
        } catch {
            try? fm.removeItem(at: destination)
            throw error
        }
    }
}
