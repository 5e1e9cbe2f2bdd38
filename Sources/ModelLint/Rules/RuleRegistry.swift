import ModelLintModel

/// Every rule modellint has, in catalog order. Adding a rule is adding its type here.
package enum RuleRegistry {
    package static let all: [any Rule] = [
        // Bundle structure
        MalformedContentsRule(), MissingContentsRule(), LegacyModelFormatRule(), MissingCurrentVersionRule(),
        CurrentVersionNotFoundRule(), CurrentVersionNotLatestRule(), VersionNameAmbiguousRule(), BundleNotShippedRule(),
        VersionOrderAmbiguousRule(), VersionOrderInferredRule(), ProgressiveMigrationLikelyRule(),
        // A single model version
        RenamingIdentifierXMLAttributeRule(), UnknownXMLAttributeRule(), UnknownAttributeTypeRule(),
        InvalidDefaultValueRule(), SuspiciousDefaultValueRule(), DuplicateNameRule(), DuplicateRenamingIDRule(),
        UnknownEntityReferenceRule(), InverseMismatchRule(), MissingInverseRule(), UniquenessConstraintInvalidRule(),
        PlaceholderEntityRule(), ReservedPropertyNameRule(), DerivedAttributeInvalidRule(),
        SuppressionUnknownRuleRule(),
        // Changes between versions
        AttributeTypeIncompatibleRule(), AttributeTypeNarrowingRule(), AttributeTypeWideningRule(),
        PropertyKindChangedRule(),
        EntityRemovedRule(), PropertyRemovedRule(), PersistentBecameTransientRule(),
        RequiredAttributeWithoutDefaultRule(),
        RelationshipBecameRequiredRule(), ToManyBecameToOneRule(), RelationshipCardinalityTightenedRule(),
        RelationshipDestinationChangedRule(), OrderedFlagChangedRule(), HierarchyMergeRule(), ParentEntityChangedRule(),
        EntityMadeAbstractRule(), UniquenessConstraintAddedRule(), ExternalStorageDisabledRule(),
        TransformerChangedRule(),
        DeleteRuleChangedRule(), DefaultValueChangedRule(), AttributeMinValueTightenedRule(),
        IndexChangedWithoutHashChangeRule(), HashModifierChangedRule(),
        RedundantVersionRule(), SkipVersionUpgradeRule(),
        // Renaming
        EntityRenamedWithoutRenamingIDRule(), PropertyRenamedWithoutRenamingIDRule(), RenamingIDRelianceRule(),
        RenamingIDUnknownRule(), RenamingIDNotCanonicalRule(), RenamingIDRemovedRule(), DeclaredRenameMissingIDRule(),
        // CloudKit
        CloudKitUniqueConstraintRule(), CloudKitRequiredAttributeRule(), CloudKitRequiredRelationshipRule(),
        CloudKitMissingInverseRule(), CloudKitOrderedRelationshipRule(), CloudKitDenyDeleteRuleRule(),
        CloudKitUnsupportedTypeRule(), CloudKitNonAdditiveChangeRule(), CloudKitEncryptionChangedRule(),
        // Shipped history
        ShippedVersionEditedRule(), ShippedVersionSemanticsChangedRule(), ShippedVersionDeletedRule(),
        CurrentVersionRolledBackRule(), VersionEditedAfterSupersededRule(), LockEntryOrphanedRule(),
        ConfigurationWeakenedRule(),
        // Retirement
        RetiredAttributePresentRule(), RetirementWithoutInterimRule(), RetirementSkipsInterimRule(),
        // What ships
        CompiledCurrentVersionMismatchRule(), CompiledVersionMissingRule(), CompiledVersionUnknownRule(),
        CompiledVersionOutOfDateRule(), CompiledRenamingIDLostRule(), CompiledRetiredPresentRule(),
        MappingModelUnmatchedRule(),
        MappingModelStaleRule(),
        MappingModelDropsEntityRule(),
        StoreVersionUnknownRule(), StoreMigrationFailsRule(), GoldenStoreUnmatchedRule(), GoldenStoreMissingRule(),
        ProjectCurrentVersionMismatchRule(), ProjectVersionMissingRule(), ProjectVersionStaleRule(),
        ProjectBundleNotCompiledRule(),
        GeneratedProjectCurrentVersionRule(), StagedMigrationUnknownChecksumRule(), StagedMigrationUnknownVersionRule(),
        // SwiftData
        SwiftDataLiveTypeInHistoricalSchemaRule(), SwiftDataDuplicateChecksumRule(), SwiftDataPlanMissingSchemaRule(),
        SwiftDataStageGapRule(), SwiftDataContainerSchemaNotLatestRule(), SwiftDataRelationshipTargetMissingRule(),
        SwiftDataFrozenSchemaEditedRule(), SwiftDataStageWrongSchemaTypeRule(), ModelClassMismatchRule(),
        SwiftDataModelNotInSchemaRule(),
    ]

    package static let descriptions: [RuleDescription] = all.map { $0.description }

    package static let ids: Set<String> = Set(descriptions.map(\.id))

    package static func description(for id: String) -> RuleDescription? {
        descriptions.first { $0.id == id }
    }
}
