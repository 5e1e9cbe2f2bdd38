import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintSwiftData
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// `modellint hashes BUNDLE [VERSION]`: Core Data's own entity version hashes and model checksum of each version,
/// as `VersionInfo.plist` and store metadata show them (base64; `--hex` for hex).
package enum HashesCommand {
    enum Format: String, CaseIterable { case text, json }
    static let format = ValueOption<Format>("--format", value: "F", help: "text (default) or json")
    static let hex = Flag("--hex", help: "hashes in hex instead of base64")
    static let config = configOption("configuration file (for versionOrder); default: nearest .modellint.json")

    package static let options = [format.spec, hex.spec, config.spec, helpFlag.spec]

    package static let help = ArgumentParser.helpText(
        usage:
            "modellint hashes BUNDLE|SWIFT-PATH [VERSION] [--hex] [--format text|json]\n       modellint hashes MAPPING.xcmappingmodel [BUNDLE] [--hex] [--format text|json]",
        summary: """
            Print, for every version of a bundle (or one), each entity's version hash and the model's versionChecksum \
            and NSStoreModelVersionHashesDigest, computed as Core Data computes them. A store opens without migration \
            exactly when its recorded hashes equal its model's; staged migration names a model by its checksum. For a \
            folder of Swift files (or a .swift file), the SwiftData schemas of its plan: an entity whose shape cannot \
            be read from the source is printed as unknown, never as a made-up hash. For a mapping model, the entity \
            hashes its linked entity mappings record for each side (what Core Data compares with a store's and the \
            destination model's) and the pairs of versions of the bundle (or of the bundles beside it) it is picked for.
            """,
        options: options)

    package static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
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
        if MappingModelHashes.isMappingModel(parsed.positionals[0]) {
            return MappingModelHashes.run(
                parsed.positionals[0], bundlePaths: Array(parsed.positionals.dropFirst()), hex: parsed[hex],
                json: parsed[format] == .json, environment: environment)
        }
        let bundle: ModelBundle
        // Per version: entities whose shape a SwiftData schema leaves unknown (their hashes are not claimed).
        var unknown: [String: Set<String>] = [:]
        do {
            let configuration = try CheckCommand.loadConfiguration(parsed[config], environment: environment)
            let (loaded, set) = try SingleBundle.loadOrSchemaSet(
                parsed.positionals[0], configuration: configuration, environment: environment)
            bundle = loaded
            for schema in set?.schemas ?? [] {
                unknown[schema.name] = Set(schema.unknownEntities.keys)
                if !schema.unresolvedModels.isEmpty { unknown[schema.name, default: []].insert("") }
            }
        } catch let error as UsageError {
            return .usageError("\(error)")
        } catch {
            return .usageError("configuration error: \(error)")
        }
        var versions = bundle.versions
        if parsed.positionals.count == 2 {
            guard let version = SingleBundle.version(parsed.positionals[1], in: bundle) else {
                return .usageError(
                    "\(bundle.shownName) has no version named '\(parsed.positionals[1])' (versions: \(bundle.versions.map(\.name).joined(separator: ", ")))"
                )
            }
            versions = [version]
        }
        let listing = VersionHashes(bundle: bundle, versions: versions, unknown: unknown, hex: parsed[Self.hex])
        if parsed[format] == .json { return CommandOutput(exitCode: 0, standardOutput: listing.json) }
        return CommandOutput(exitCode: listing.unreadable == 0 ? 0 : 1, standardOutput: listing.text)
    }

    /// The hashes of a bundle's versions as `hashes` prints them: JSON, or text in aligned rows.
    struct VersionHashes {
        var bundle: ModelBundle
        var versions: [ModelVersion]
        /// Per version: entities whose shape a SwiftData schema leaves unknown (their hashes are not claimed).
        var unknown: [String: Set<String>]
        var hex: Bool

        var current: String? { bundle.currentVersion?.name }
        var unreadable: Int { versions.filter { $0.model == nil }.count }

        func encode(_ bytes: [UInt8]) -> String { HashesCommand.encode(bytes, hex: hex) }
        func encode(base64 text: String) -> String {
            hex ? Data(base64Encoded: text).map { encode([UInt8]($0)) } ?? text : text
        }

        /// The checksum, store digest and entity hashes, each "unknown" where a schema leaves it so.
        func values(_ model: Model, of version: String) -> (
            checksum: String, digest: String, entities: [(String, String)]
        ) {
            let hashes = model.versionHashes
            let unknownHere = unknown[version] ?? []
            let whole = unknownHere.isEmpty
            return (
                whole ? encode(base64: hashes.versionChecksum) : "unknown",
                whole ? encode(base64: hashes.storeDigest) : "unknown",
                hashes.orderedNames.map { ($0, unknownHere.contains($0) ? "unknown" : encode(hashes.entities[$0]!)) }
            )
        }

        var json: String {
            let items: [JSONValue] = versions.map { version in
                var pairs: [(String, JSONValue)] = [
                    ("name", .string(version.name)), ("current", .bool(version.name == current)),
                ]
                guard let model = version.model else {
                    pairs.append(("error", .string("the version cannot be read; run modellint check for why")))
                    return .object(pairs)
                }
                let (checksum, digest, entities) = values(model, of: version.name)
                pairs.append(("versionChecksum", .string(checksum)))
                pairs.append(("storeDigest", .string(digest)))
                pairs.append(("entities", .object(entities.map { ($0.0, .string($0.1)) })))
                return .object(pairs)
            }
            let json: JSONValue = .object([
                ("bundle", .string(bundle.path)), ("encoding", .string(hex ? "hex" : "base64")),
                ("versions", .array(items)),
            ])
            return json.serialized() + "\n"
        }

        var text: String {
            var text = "\(ReportText.escaped(bundle.path))\n"
            for version in versions {
                text += "\n\(ReportText.escaped(version.name))\(version.name == current ? " (current)" : "")\n"
                guard let model = version.model else {
                    text += "  cannot be read; run modellint check for why\n"
                    continue
                }
                let (checksum, digest, entities) = values(model, of: version.name)
                let names = entities.map { ReportText.escaped($0.0) }
                let width = max(names.map(\.count).max() ?? 0, "NSStoreModelVersionHashesDigest".count)
                func row(_ label: String, _ value: String) -> String {
                    "  " + label + String(repeating: " ", count: width - label.count) + "  " + value + "\n"
                }
                text += row("versionChecksum", checksum)
                text += row("NSStoreModelVersionHashesDigest", digest)
                for (shown, entity) in zip(names, entities) { text += row(shown, entity.1) }
            }
            return text
        }
    }

    /// A hash as printed: base64, or hex with `--hex`.
    static func encode(_ bytes: [UInt8], hex: Bool) -> String {
        hex ? bytes.map { String(format: "%02x", $0) }.joined() : Data(bytes).base64EncodedString()
    }

    /// The SwiftData schema sets of the Swift files under a folder (or of a `.swift` file's folder).
    static func swiftDataSets(_ path: String, environment: CommandEnvironment) -> [SwiftSchemaSet] {
        let finder = BundleFinder(workingDirectory: environment.workingDirectory)
        guard let (_, groups) = try? finder.selections(for: [path]) else { return [] }
        return groups.flatMap { root, files in
            SwiftDataLoader.load(files, root: root) {
                PathTools.display($0, relativeTo: environment.workingDirectory)
            }.sets
        }
    }
}
