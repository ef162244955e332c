import BackofficeCore
import Fluent
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// The parts of an account whose reads are cached, each with its own change version
/// (`M084_CreateChangeVersions` lists the tables behind each).
enum ChangeArea: String, Sendable, CaseIterable {
  case products
  case expenses
}

/// A value the read cache may keep, with about how many bytes it holds.
protocol ReadCacheable: Sendable {
  var cacheCost: Int { get }
}

/// Answers of repeated reads kept in memory, keyed by the workspace's change version of the
/// area they read. A value that depends on who reads it (a person's favourites) names the
/// person in its key.
///
/// Why it is never stale: a request reads the area's version from the database first and
/// computes on a miss afterwards, so what it stores under version `v` is at least as new as
/// `v`. A write commits its version bump in the same transaction as its rows, so once a write
/// is acknowledged every later request reads a newer version, misses, and computes again. That
/// holds across app instances, because the version lives in the database, not in this cache.
/// Only `GET` and `HEAD` use it: they write nothing to the areas, so a version read at the
/// start of the request is still the request's own state when the cache is consulted.
///
/// Memory: at most `maxBytes` (by each value's stated cost), the least recently used account
/// areas dropped first; an area holds the values of one version only.
final class ReadCache: Sendable {
  struct Stats: Sendable, Equatable {
    var hits = 0
    var misses = 0
  }

  private struct BucketKey: Hashable {
    var workspace: UUID
    var area: ChangeArea
  }

  /// A read's key: the arguments it was computed from (a typed value, e.g. a store's query),
  /// and the type of what it computed, so two reads with the same arguments but different
  /// answers never meet. (`AnyHashable` is not `Sendable`; every key is made from a
  /// `Sendable` value, so this one is.)
  private struct Key: Hashable, @unchecked Sendable {
    var arguments: AnyHashable
    var value: ObjectIdentifier
  }

  private struct Entry {
    var value: any Sendable
    var cost: Int
    var lastUse: UInt64
  }

  private struct Bucket {
    var version: Int64
    var values: [Key: Entry] = [:]
    var cost = 0
    var lastUse: UInt64 = 0
  }

  private struct State {
    var buckets: [BucketKey: Bucket] = [:]
    var cost = 0
    var tick: UInt64 = 0
    var stats = Stats()
  }

  let maxBytes: Int
  /// Distinct reads one account area may keep (search prefixes, pages, filters).
  let maxValuesPerArea: Int
  private let state = NIOLockedValueBox(State())

  init(maxBytes: Int, maxValuesPerArea: Int = 512) {
    self.maxBytes = maxBytes
    self.maxValuesPerArea = maxValuesPerArea
  }

  var stats: Stats { state.withLockedValue { $0.stats } }
  /// The stated size of everything held now.
  var storedBytes: Int { state.withLockedValue { $0.cost } }

  /// The value stored for `arguments` at `version`, or `compute()`'s, stored when it is worth
  /// keeping. `arguments` must hold everything the value depends on besides the area's data
  /// (filters, page, the reader, locale, currency): the typed arguments of the read.
  func value<Value: ReadCacheable, Arguments: Hashable & Sendable>(
    workspace: UUID, area: ChangeArea, version: Int64, key arguments: Arguments,
    compute: () async throws -> Value
  ) async throws -> Value {
    guard maxBytes > 0 else { return try await compute() }
    let key = Key(arguments: AnyHashable(arguments), value: ObjectIdentifier(Value.self))
    let bucketKey = BucketKey(workspace: workspace, area: area)
    let found: Value? = state.withLockedValue { state in
      state.tick += 1
      let tick = state.tick
      // Read and touched in place, so a hit never copies the area's dictionary.
      guard state.buckets[bucketKey]?.version == version,
        let value = state.buckets[bucketKey]?.values[key]?.value as? Value
      else {
        state.stats.misses += 1
        return nil
      }
      state.stats.hits += 1
      state.buckets[bucketKey]?.lastUse = tick
      state.buckets[bucketKey]?.values[key]?.lastUse = tick
      return value
    }
    if let found {
      AppMetrics.shared.cacheHits.increment()
      return found
    }
    AppMetrics.shared.cacheMisses.increment()
    let value = try await compute()
    // The key's own size is not known; 32 bytes stand for it.
    let size = max(value.cacheCost, 64) + 32
    guard size <= maxBytes / 8 else { return value }
    let maxValues = maxValuesPerArea
    let areaBytes = maxBytes / 2
    state.withLockedValue { state in
      let tick = state.tick
      let released = Self.store(
        into: &state.buckets[bucketKey, default: Bucket(version: version)],
        key: key, value: value, size: size, version: version, tick: tick,
        maxValues: maxValues, maxBytes: areaBytes)
      state.cost += released
      Self.evict(&state, maxBytes: maxBytes, keeping: bucketKey)
    }
    return value
  }

  /// Puts `value` into the area and returns how the area's size changed. An older request
  /// finishing late does not replace a newer version's values; a newer version replaces them
  /// all. One area holds at most `maxValues` values and half the cache: past that, its least
  /// recently used values go first.
  private static func store(
    into bucket: inout Bucket, key: Key, value: any Sendable, size: Int, version: Int64,
    tick: UInt64, maxValues: Int, maxBytes: Int
  ) -> Int {
    let before = bucket.cost
    if bucket.version > version { return 0 }
    if bucket.version < version { bucket = Bucket(version: version) }
    if let old = bucket.values.removeValue(forKey: key) { bucket.cost -= old.cost }
    while !bucket.values.isEmpty
      && (bucket.values.count >= maxValues || bucket.cost + size > maxBytes)
    {
      guard let oldest = bucket.values.min(by: { $0.value.lastUse < $1.value.lastUse }) else {
        break
      }
      bucket.cost -= oldest.value.cost
      bucket.values[oldest.key] = nil
    }
    bucket.values[key] = Entry(value: value, cost: size, lastUse: tick)
    bucket.cost += size
    bucket.lastUse = tick
    return bucket.cost - before
  }

  /// Drops the least recently used account areas until the cache fits.
  private static func evict(_ state: inout State, maxBytes: Int, keeping: BucketKey) {
    while state.cost > maxBytes {
      guard
        let oldest = state.buckets.filter({ $0.key != keeping })
          .min(by: { $0.value.lastUse < $1.value.lastUse })
      else { break }
      state.cost -= oldest.value.cost
      state.buckets[oldest.key] = nil
    }
  }
}

extension Application {
  private struct ReadCacheKey: StorageKey {
    typealias Value = ReadCache
  }

  var readCache: ReadCache {
    get { storage[ReadCacheKey.self] ?? ReadCache(maxBytes: 0) }
    set { storage[ReadCacheKey.self] = newValue }
  }
}

extension Request {
  /// Versions already read in this request, by an earlier cached read (a page reads the
  /// catalog's version for itself and again for its parts).
  var knownChangeVersions: [ChangeArea: Int64] {
    get { kept.read { $0.knownChangeVersions } }
    set { kept.change { $0.knownChangeVersions = newValue } }
  }

  /// `compute()`'s value for the request's workspace, from the read cache when this request may
  /// use it (`GET`/`HEAD`) and the workspace's `area` has not changed since it was stored.
  /// `key` is the read's typed arguments (a store's query value): everything else the value
  /// depends on (filters, page, the reader, locale, currency).
  func cached<Value: ReadCacheable, Key: Hashable & Sendable>(
    _ area: ChangeArea, key: Key, compute: () async throws -> Value
  ) async throws -> Value {
    let cache = application.readCache
    guard cache.maxBytes > 0, method == .GET || method == .HEAD else { return try await compute() }
    let workspace = try workspaceID
    let version: Int64
    if let known = knownChangeVersions[area] {
      version = known
    } else {
      // Kept for the rest of the request (a page reads the catalog's version for the page and
      // again for its parts): a GET writes nothing, so the version it read still holds.
      version = try await ChangeVersions.read(
        area, workspaceID: workspace, on: db)
      knownChangeVersions[area] = version
    }
    return try await cache.value(
      workspace: workspace, area: area, version: version, key: key, compute: compute)
  }
}

enum ChangeVersions {
  static let lookupSQL = "SELECT version FROM change_versions WHERE workspace_id = ?1 AND area = ?2"
  private static let lookup = ShortRead(lookupSQL)

  /// The workspace's current version of `area`; 0 before its first change.
  static func read(
    _ area: ChangeArea, workspaceID: UUID, on db: any Database
  ) async throws -> Int64 {
    let row = try await lookup.first(on: db, [workspaceID, area.rawValue])
    return try row?.decode(column: "version", as: Int64.self) ?? 0
  }
}

extension EncodedListPage: ReadCacheable {
  var cacheCost: Int { body.readableBytes }
}

extension ExpenseTotals: ReadCacheable {
  var cacheCost: Int { 64 + lines.count * 64 }
}

extension Array: ReadCacheable where Element == ProductTypeChip {
  var cacheCost: Int { count * 96 }
}
