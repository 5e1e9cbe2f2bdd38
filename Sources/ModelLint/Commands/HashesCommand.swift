import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintEngine

/// `modellint hashes BUNDLE [VERSION]`: Core Data's own entity version hashes and model checksum of each version,
/// as `VersionInfo.plist` and store metadata show them (base64; `--hex` for hex).
public enum HashesCommand {
    enum Format: String, CaseIterable { case text, json }
    static let format = ValueOption<Format>("--format", value: "F", help: "text (default) or json")
    static let hex = Flag("--hex", help: "hashes in hex instead of base64")
    static let config = configOption("configuration file (for versionOrder); default: nearest .modellint.json")

    public static let options = [format.spec, hex.spec, config.spec, helpFlag.spec]

    public static let help = ArgumentParser.helpText(
        usage: "modellint hashes BUNDLE [VERSION] [--hex] [--format text|json]",
        summary: """
            Print, for every version of a bundle (or one), each entity's version hash and the model's versionChecksum \
            and NSStoreModelVersionHashesDigest, computed as Core Data computes them. A store opens without migration \
            exactly when its recorded hashes equal its model's; staged migration names a model by its checksum.
            """,
        options: options)

    public static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "hashes")
        } catch {
            return .usageError("\(error)")
        }
        if parsed[helpFlag] { return CommandOutput(exitCode: 0, standardOutput: help) }
        guard (1...2).contains(parsed.positionals.count) else {
            return .usageError("hashes takes a bundle and optionally a version name; see 'modellint hashes --help'")
        }
        let bundle: ModelBundle
        do {
            let configuration = try CheckCommand.loadConfiguration(parsed[config], environment: environment)
            bundle = try SingleBundle.load(
                parsed.positionals[0], configuration: configuration, environment: environment)
        } catch let error as UsageError {
            return .usageError("\(error)")
        } catch {
            return .usageError("configuration error: \(error)")
        }
        var versions = bundle.versions
        if parsed.positionals.count == 2 {
            guard let version = SingleBundle.version(parsed.positionals[1], in: bundle) else {
                return .usageError(
                    "\(bundle.name).xcdatamodeld has no version named '\(parsed.positionals[1])' (versions: \(bundle.versions.map(\.name).joined(separator: ", ")))"
                )
            }
            versions = [version]
        }
        let hex = parsed[Self.hex]
        func encode(_ bytes: [UInt8]) -> String {
            hex ? bytes.map { String(format: "%02x", $0) }.joined() : Data(bytes).base64EncodedString()
        }
        func encode(base64 text: String) -> String {
            hex ? Data(base64Encoded: text).map { encode([UInt8]($0)) } ?? text : text
        }
        let current = bundle.currentVersion?.name
        if parsed[format] == .json {
            let items: [JSONValue] = versions.map { version in
                var pairs: [(String, JSONValue)] = [
                    ("name", .string(version.name)), ("current", .bool(version.name == current)),
                ]
                guard let model = version.model else {
                    pairs.append(("error", .string("the version cannot be read; run modellint check for why")))
                    return .object(pairs)
                }
                let hashes = model.versionHashes
                pairs.append(("versionChecksum", .string(encode(base64: hashes.versionChecksum))))
                pairs.append(("storeDigest", .string(encode(base64: hashes.storeDigest))))
                pairs.append(
                    ("entities", .object(hashes.orderedNames.map { ($0, .string(encode(hashes.entities[$0]!))) })))
                return .object(pairs)
            }
            let json: JSONValue = .object([
                ("bundle", .string(bundle.path)), ("encoding", .string(hex ? "hex" : "base64")),
                ("versions", .array(items)),
            ])
            return CommandOutput(exitCode: 0, standardOutput: json.serialized() + "\n")
        }
        var text = "\(ReportText.escaped(bundle.path))\n"
        var unreadable = 0
        for version in versions {
            text += "\n\(ReportText.escaped(version.name))\(version.name == current ? " (current)" : "")\n"
            guard let model = version.model else {
                unreadable += 1
                text += "  cannot be read; run modellint check for why\n"
                continue
            }
            let hashes = model.versionHashes
            let names = hashes.orderedNames.map(ReportText.escaped)
            let width = max(names.map(\.count).max() ?? 0, "NSStoreModelVersionHashesDigest".count)
            func row(_ label: String, _ value: String) -> String {
                "  " + label + String(repeating: " ", count: width - label.count) + "  " + value + "\n"
            }
            text += row("versionChecksum", encode(base64: hashes.versionChecksum))
            text += row("NSStoreModelVersionHashesDigest", encode(base64: hashes.storeDigest))
            for (shown, name) in zip(names, hashes.orderedNames) { text += row(shown, encode(hashes.entities[name]!)) }
        }
        return CommandOutput(exitCode: unreadable == 0 ? 0 : 1, standardOutput: text)
    }
}
