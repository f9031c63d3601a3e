import Foundation
import Observation
import RawCoding

/// The checks every ``KeyValueStore`` must pass, runnable from any test framework: the suite
/// this package runs against its own adapters, public so another store's tests run it too.
///
/// Give it two instances on one fresh, empty backing storage (two handles on the same
/// database table, directory or suite), then run each ``Check``:
///
/// ```swift
/// @Test(arguments: KeyValueStoreContract.Check.allCases)
/// func meetsTheStoreContract(_ check: KeyValueStoreContract.Check) async throws {
///     let table = try TemporaryTable()
///     try await KeyValueStoreContract(SQLStore(table), sameStorage: SQLStore(table)).run(check)
/// }
/// ```
///
/// A check that fails throws ``Failure``, which says what was expected and what happened.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public struct KeyValueStoreContract: Sendable {
    /// One promise of the contract.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        /// A missing key reads as `nil`, removing it is not an error, a fresh store has no keys.
        case readsNothingForMissingKeys
        /// Every kind of tree a codec writes (strings, numbers at their limits, Booleans,
        /// dates, bytes, nesting, empty containers) reads back equal.
        case storesEveryKindOfValue
        /// A write replaces, a removal removes, ``KeyValueStore/keys()`` follows both.
        case overwritesAndRemoves
        /// Keys that differ only in case, or hold `.`, `/`, `%` or non-ASCII text, stay distinct.
        case keepsAwkwardKeysApart
        /// `null` at the top level is refused and nothing is stored.
        case refusesNullAtTheTopLevel
        /// Concurrent ``KeyValueStore/update(forKey:_:)`` calls lose no increment.
        case updatesAreAtomic
        /// The `async` calls read and write as the synchronous ones do, and one from a cancelled
        /// task throws `.cancelled` and writes nothing.
        case asyncCallsMatchTheSynchronousOnes
        /// An update whose body throws writes nothing.
        case failedUpdateWritesNothing
        /// A write through one instance is read through the other.
        case instancesShareStorage
        /// Observers of both instances are told of a write, with its origin; a cancelled
        /// observation is not.
        case notifiesObservers
        /// ``KeyValueStore/setAside(forKey:)`` moves a payload out of the key, lists it, returns it
        /// unchanged and discards it.
        case setsPayloadsAside
        /// A ``StoredProperty`` sees a write through the other instance, and observation fires.
        case storedPropertyFollowsOtherInstances
        /// A payload that does not decode reads as the default with an error; the next write
        /// sets it aside, from where it is recovered unchanged.
        case undecodablePayloadIsKept
        /// ``StoredProperty/values()`` yields the current value, then a write through the
        /// other instance.
        case streamsDeliverWrites
        /// A store with another codec on the same storage (``FileStore``s with two codecs in
        /// one directory) and this one each list only keys they read, and read back what they
        /// wrote, whether the codec gives each its own keys (files) or not (trees).
        case sharesStorageWithAnotherCodec
        /// `nil` written to an optional (a string, a struct, an array, a dictionary, a
        /// `StoredValue`) removes the key, by every path: `set(_:forKey:)`,
        /// `update(_:forKey:defaultValue:_:)`, a ``StoredProperty`` (what
        /// ``Stored`` writes through) and the `async` calls; it reads back as `nil`, through the
        /// other instance too.
        case storesNilAsAbsent
        /// An observer of either instance that reads a ``StoredProperty`` of the key, on either
        /// instance, reads the new value: for the property's own write, for a write through the
        /// other instance's property and for a typed `set(_:forKey:)`, even when
        /// the observer was added before the properties.
        case observersReadTheNewValue

        public var description: String { rawValue }
    }

    /// A check that did not hold.
    public struct Failure: Error, CustomStringConvertible {
        /// The check.
        public var check: Check
        /// What was expected, and what happened.
        public var message: String

        public var description: String { "KeyValueStoreContract.\(check): \(message)" }
    }

    /// The first instance.
    public let store: any KeyValueStore
    /// A second instance on the same backing storage.
    public let other: any KeyValueStore
    /// An instance on the same backing storage with another codec, where the store can have
    /// one; ``other`` where not given.
    public let otherCodec: any KeyValueStore
    /// How long a check waits for a change notification to arrive.
    public var timeout: Duration

    /// Prepares the contract for two instances on one fresh, empty backing storage.
    /// - Parameters:
    ///   - store: The store under test.
    ///   - other: Another instance on the same storage.
    ///   - otherCodec: An instance on the same storage with another codec, for a store whose
    ///     codec decides where values are kept (files named with its extension); `nil` checks
    ///     ``Check/sharesStorageWithAnotherCodec`` with `other`.
    ///   - timeout: How long to wait for notifications; 5 seconds by default.
    public init(
        _ store: any KeyValueStore, sameStorage other: any KeyValueStore,
        otherCodec: (any KeyValueStore)? = nil, timeout: Duration = .seconds(5)
    ) {
        self.store = store
        self.other = other
        self.otherCodec = otherCodec ?? other
        self.timeout = timeout
    }

    /// Runs one check.
    /// - Parameter check: The check.
    /// - Throws: ``Failure`` if it does not hold, or the store's `RawCodingError`.
    public func run(_ check: Check) async throws {
        let run = Run(contract: self, check: check)
        switch check {
        case .readsNothingForMissingKeys: try run.readsNothingForMissingKeys()
        case .storesEveryKindOfValue: try run.storesEveryKindOfValue()
        case .overwritesAndRemoves: try run.overwritesAndRemoves()
        case .keepsAwkwardKeysApart: try run.keepsAwkwardKeysApart()
        case .refusesNullAtTheTopLevel: try run.refusesNullAtTheTopLevel()
        case .updatesAreAtomic: try await run.updatesAreAtomic()
        case .asyncCallsMatchTheSynchronousOnes: try await run.asyncCallsMatchTheSynchronousOnes()
        case .failedUpdateWritesNothing: try run.failedUpdateWritesNothing()
        case .instancesShareStorage: try run.instancesShareStorage()
        case .notifiesObservers: try await run.notifiesObservers()
        case .setsPayloadsAside: try run.setsPayloadsAside()
        case .storedPropertyFollowsOtherInstances: try await run.storedPropertyFollowsOtherInstances()
        case .undecodablePayloadIsKept: try run.undecodablePayloadIsKept()
        case .streamsDeliverWrites: try await run.streamsDeliverWrites()
        case .sharesStorageWithAnotherCodec: try run.sharesStorageWithAnotherCodec()
        case .storesNilAsAbsent: try await run.storesNilAsAbsent()
        case .observersReadTheNewValue: try await run.observersReadTheNewValue()
        }
    }
}
