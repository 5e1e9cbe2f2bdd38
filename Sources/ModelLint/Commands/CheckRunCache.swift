import Foundation
import ModelLintSupport
import ModelLintHistory
import ModelLintRules
import ModelLintGather

/// A `check` run's report, kept in the user's cache folder with everything the run consulted (`InputLog`): the
/// identity of each file and folder it read, listed or looked for, and each git command with a digest of its answer.
/// A run with the same arguments, environment and modellint executable prints that report again while every path
/// has the same identity and every git command answers the same, so a second run over unchanged bundles parses and
/// judges nothing. Any difference, an entry that cannot be read as written, or a run that asked git with input
/// (revisions: `--against`, `--released`; the index: `--pre-commit`) means the run is made afresh.
struct CheckRunCache {
    private let cache: ResultCache
    /// The digest of the arguments, environment and executable the report answers.
    private let key: String
    private static let kind = "check-run"

    /// Nil when the run is not one to keep: `--no-cache`, no cache folder, or a run that reads git revisions or
    /// the index, or writes a baseline (its output is the file).
    init?(_ arguments: [String], options: CheckCommand.Options, environment: CommandEnvironment) {
        guard !options.noCache, !options.preCommit, options.against == nil, options.released == nil,
            !options.onlyNew, options.writeBaseline == nil, !options.help
        else { return nil }
        let cache = ResultCache.standard(environment: environment.variables)
        // The executable's identity: a rebuilt modellint keeps its version string, not its rules.
        guard let folder = cache.folder, let executable = ExecutablePath.current,
            case let identity = InputLog.identity(of: executable), !identity.hasPrefix("-")
        else { return nil }
        let variables = environment.variables.filter { name, _ in
            name.hasPrefix("MODELLINT_") || name.hasPrefix("GIT_")
                || ["PATH", "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"].contains(name)
        }.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        let material =
            [
                "modellint check-run 1", ModelLintVersion.current, executable, identity, folder,
                environment.workingDirectory, FileManager.default.currentDirectoryPath,
            ]
            + ["arguments"] + arguments + ["environment"] + variables
        self.cache = cache
        key = SHA256.hex(material.joined(separator: "\u{0}"))
    }

    /// The folder whose files the cache writes, for the run's log to leave out.
    var folder: String? { cache.folder }

    /// The report and notices kept for this run, when everything it consulted is as it was.
    func lookup() -> (report: LintReport, notices: [String])? {
        guard let value = cache.value(forKey: key, kind: Self.kind), let paths = value["paths"]?.arrayValue,
            let commands = value["commands"]?.arrayValue
        else { return nil }
        var logged: [InputLog.Command] = []
        for entry in commands {
            guard let fields = entry.arrayValue?.compactMap(\.stringValue), fields.count >= 4,
                let status = Int32(fields[1])
            else { return nil }
            logged.append(
                InputLog.Command(
                    executable: fields[0], arguments: Array(fields[4...]), status: status, outputDigest: fields[2],
                    errorDigest: fields[3]))
        }
        // git is asked again while the paths are compared and the report read: its start-up is most of the wait.
        let answers = logged.map { command in Pending { GitRepository.answersAsLogged(command) } }
        defer { for answer in answers { answer.wait() } }
        for entry in paths {
            guard let fields = entry.arrayValue, fields.count == 2 || fields.count == 3,
                let path = fields[0].stringValue, let identity = fields[1].stringValue,
                InputLog.identity(of: path) == identity
            else { return nil }
            // Read within the timestamps' resolution: what it holds must be what the run read.
            if fields.count == 3 {
                guard let digest = fields[2].stringValue, InputLog.contentDigest(of: path) == digest else { return nil }
            }
        }
        guard let report = value["report"].flatMap(Self.report(from:)),
            let notices = value["notices"]?.arrayValue?.compactMap(\.stringValue)
        else { return nil }
        guard answers.allSatisfy(\.value) else { return nil }
        return (report, notices)
    }

    /// Keeps the run's report with what it consulted; nothing when the run did what cannot be repeated, or a path
    /// changed too recently to tell an edit after the run read it.
    func store(_ report: LintReport, notices: [String], consulted log: InputLog.Contents) {
        guard log.isRepeatable else { return }
        var paths: [JSONValue] = []
        paths.reserveCapacity(log.paths.count)
        for path in log.paths {
            // As it was when the run read it; unsettled then, with what it held, since an edit after the read
            // could keep its identity.
            guard let observed = log.identities[path], observed.digest != "" else { return }
            paths.append(
                .array([.string(path), .string(observed.identity)] + (observed.digest.map { [.string($0)] } ?? [])))
        }
        let commands = log.commands.map { command in
            JSONValue.array(
                ([command.executable, "\(command.status)", command.outputDigest, command.errorDigest]
                    + command.arguments).map { .string($0) })
        }
        cache.store(
            .object([
                ("paths", .array(paths)), ("commands", .array(commands)), ("report", Self.json(report)),
                ("notices", .array(notices.map { .string($0) })),
            ]), forKey: key, kind: Self.kind)
    }

    // MARK: - The report as JSON, every field kept

    static func json(_ report: LintReport) -> JSONValue {
        func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
        let bundles = report.bundles.map { bundle -> JSONValue in
            var fields: [(String, JSONValue)] = [
                ("path", .string(bundle.path)), ("versions", strings(bundle.versions)),
            ]
            if let current = bundle.currentVersion { fields.append(("currentVersion", .string(current))) }
            if let kind = bundle.kind { fields.append(("kind", .string(kind))) }
            return .object(fields)
        }
        let diagnostics = report.diagnostics.map { d -> JSONValue in
            var fields: [(String, JSONValue)] = [
                ("ruleId", .string(d.ruleId)), ("severity", .string(d.severity.rawValue)),
                ("message", .string(d.message)),
                ("fix", .string(d.fix)), ("bundle", .string(d.bundle)), ("file", .string(d.file)),
            ]
            for (name, value) in [
                ("version", d.version), ("fromVersion", d.fromVersion), ("entity", d.entity), ("property", d.property),
                ("mappingModel", d.mappingModel), ("underlyingRuleId", d.underlyingRuleId), ("identity", d.identity),
                ("groupedUnder", d.groupedUnder),
            ] {
                if let value { fields.append((name, .string(value))) }
            }
            if let line = d.line { fields.append(("line", .number(Double(line)))) }
            if let column = d.column { fields.append(("column", .number(Double(column)))) }
            if let affected = d.affectedVersions { fields.append(("affectedVersions", strings(affected))) }
            if let versions = d.versions { fields.append(("versions", strings(versions))) }
            return .object(fields)
        }
        return .object([
            ("bundles", .array(bundles)), ("diagnostics", .array(diagnostics)),
            ("unreadablePaths", strings(report.unreadablePaths)), ("outsidePaths", strings(report.outsidePaths)),
            ("tooLargeSwiftFiles", strings(report.tooLargeSwiftFiles)),
        ])
    }

    /// The report `json` kept; nil when any part is not as `json` writes it.
    static func report(from value: JSONValue) -> LintReport? {
        guard let bundleValues = value["bundles"]?.arrayValue, let diagnosticValues = value["diagnostics"]?.arrayValue,
            let unreadable = strings(value["unreadablePaths"]), let outside = strings(value["outsidePaths"]),
            let tooLarge = strings(value["tooLargeSwiftFiles"])
        else { return nil }
        var bundles: [BundleSummary] = []
        for item in bundleValues {
            guard let path = item["path"]?.stringValue, let versions = strings(item["versions"]),
                case .some(let current) = optionalString(item["currentVersion"]),
                case .some(let kind) = optionalString(item["kind"])
            else { return nil }
            var bundle = BundleSummary(path: path, currentVersion: current, versions: versions)
            bundle.kind = kind
            bundles.append(bundle)
        }
        var diagnostics: [Diagnostic] = []
        diagnostics.reserveCapacity(diagnosticValues.count)
        for item in diagnosticValues {
            guard let d = diagnostic(from: item) else { return nil }
            diagnostics.append(d)
        }
        // Kept in the order the run sorted them: sorting again is not needed, and must not reorder ties.
        var report = LintReport(bundles: bundles, diagnostics: [])
        report.diagnostics = diagnostics
        report.unreadablePaths = unreadable
        report.outsidePaths = outside
        report.tooLargeSwiftFiles = tooLarge
        return report
    }

    /// A list of strings, nil when any item is not one.
    static func strings(_ value: JSONValue?) -> [String]? {
        guard let items = value?.arrayValue else { return nil }
        let list = items.compactMap(\.stringValue)
        return list.count == items.count ? list : nil
    }

    /// An optional string: absent is `.some(nil)`, a value that is not a string is nil.
    static func optionalString(_ value: JSONValue?) -> String?? {
        guard let value else { return .some(nil) }
        return value.stringValue.map { .some($0) }
    }

    /// One finding as `json` writes it; nil when any field is not.
    static func diagnostic(from item: JSONValue) -> Diagnostic? {
        guard let ruleId = item["ruleId"]?.stringValue,
            let severity = item["severity"]?.stringValue.flatMap(Severity.init(rawValue:)),
            let message = item["message"]?.stringValue, let fix = item["fix"]?.stringValue,
            let bundle = item["bundle"]?.stringValue, let file = item["file"]?.stringValue
        else { return nil }
        var d = Diagnostic(ruleId: ruleId, severity: severity, message: message, fix: fix, bundle: bundle, file: file)
        guard case .some(let version) = optionalString(item["version"]),
            case .some(let fromVersion) = optionalString(item["fromVersion"]),
            case .some(let entity) = optionalString(item["entity"]),
            case .some(let property) = optionalString(item["property"]),
            case .some(let mappingModel) = optionalString(item["mappingModel"]),
            case .some(let underlying) = optionalString(item["underlyingRuleId"]),
            case .some(let identity) = optionalString(item["identity"]),
            case .some(let groupedUnder) = optionalString(item["groupedUnder"])
        else { return nil }
        (d.version, d.fromVersion, d.entity, d.property) = (version, fromVersion, entity, property)
        (d.mappingModel, d.underlyingRuleId, d.identity, d.groupedUnder) =
            (mappingModel, underlying, identity, groupedUnder)
        if let line = item["line"] {
            guard let n = line.intValue else { return nil }
            d.line = n
        }
        if let column = item["column"] {
            guard let n = column.intValue else { return nil }
            d.column = n
        }
        if let affected = item["affectedVersions"] {
            guard let list = strings(affected) else { return nil }
            d.affectedVersions = list
        }
        if let versions = item["versions"] {
            guard let list = strings(versions) else { return nil }
            d.versions = list
        }
        return d
    }
}
