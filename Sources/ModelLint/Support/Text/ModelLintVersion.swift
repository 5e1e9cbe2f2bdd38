/// The version every report and lock file names.
public enum ModelLintVersion {
    public static let current = "0.1.0"
}
