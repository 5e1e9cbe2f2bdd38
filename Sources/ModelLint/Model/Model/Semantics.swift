/// What Core Data's rules mean for one element, shared by the diff's classification and the rules.
extension Relationship {
    /// Required: no `optional="YES"`, and for a to-many also `minCount >= 1`.
    @inlinable package var isRequired: Bool { !isOptional && (!isToMany || (minCount ?? 0) >= 1) }
    /// The largest number of destination objects allowed (nil: unbounded).
    @inlinable package var effectiveMaxCount: Int? { isToMany ? ((maxCount ?? 0) > 0 ? maxCount : nil) : 1 }
    /// The smallest non-empty count allowed.
    @inlinable package var smallestNonEmptyCount: Int { max(minCount ?? 0, 1) }
}

extension AttributeType {
    /// Widening that inference accepts (docs/core-data.md): Integer 16 -> 32/64, Integer 32 -> 64, Float -> Double, Boolean -> any integer.
    @inlinable package func widens(to other: AttributeType) -> Bool {
        switch (self, other) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64), (.float, .double):
            return true
        case (.boolean, let target): return target.isInteger
        default: return false
        }
    }
}
