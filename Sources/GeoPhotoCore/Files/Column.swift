/// A read-only column of fixed-size values: a view into a mapped file (`MappedBytes`), or into
/// memory of its own. The indexes a server searches (`SpatialIndex`, `ClusterIndex`) keep
/// their numbers in columns, so a hierarchy read back from disk is used where it lies instead
/// of being copied onto the heap.
///
/// A column is immutable and keeps what holds its bytes alive; copies share them.
public struct Column<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
  @usableFromInline let base: UnsafePointer<Element>
  public let count: Int
  /// What keeps `base` valid: the mapped file or the column's own allocation.
  @usableFromInline let owner: AnyObject

  /// A column of `count` values at `base`, valid while `owner` lives.
  public init(base: UnsafePointer<Element>, count: Int, owner: AnyObject) {
    self.base = base
    self.count = count
    self.owner = owner
  }

  /// An empty column.
  public init() { self.init(ColumnStorage<Element>(count: 0)) }

  /// A copy of `values`.
  public init(_ values: some Collection<Element>) {
    let storage = ColumnStorage<Element>(count: values.count)
    _ = UnsafeMutableBufferPointer(start: storage.pointer, count: values.count).initialize(from: values)
    self.init(storage)
  }

  /// `count` values written by `body` into memory of the column's own.
  public init(count: Int, initializingWith body: (UnsafeMutableBufferPointer<Element>) throws -> Void) rethrows {
    let storage = ColumnStorage<Element>(count: count)
    try body(UnsafeMutableBufferPointer(start: storage.pointer, count: count))
    self.init(storage)
  }

  /// The values of `range` in `bytes`, without a copy; nil when the range is outside the
  /// file, not a whole number of values or not aligned for them.
  public init?(_ bytes: MappedBytes, _ range: Range<Int>) {
    guard let view = bytes.column(range, of: Element.self), let base = view.baseAddress else { return nil }
    self.init(base: base, count: view.count, owner: bytes)
  }

  private init(_ storage: ColumnStorage<Element>) {
    self.init(base: UnsafePointer(storage.pointer), count: storage.count, owner: storage)
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  /// The value at `i`; trapping outside the column, as an array does.
  @inlinable
  public subscript(i: Int) -> Element {
    precondition(i >= 0 && i < count, "column index out of range")
    return base[i]
  }

  /// The values as a buffer, valid inside `body`.
  @inlinable
  public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    try withExtendedLifetime(owner) { try body(UnsafeBufferPointer(start: base, count: count)) }
  }

  /// The values' bytes, valid inside `body`.
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try withUnsafeBufferPointer { try body(UnsafeRawBufferPointer($0)) }
  }
}

extension Column: Equatable where Element: Equatable {
  public static func == (a: Column, b: Column) -> Bool { a.elementsEqual(b) }
}

extension Column: ExpressibleByArrayLiteral {
  public init(arrayLiteral values: Element...) { self.init(values) }
}

/// A column's own memory.
final class ColumnStorage<Element: BitwiseCopyable>: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<Element>
  let count: Int

  init(count: Int) {
    self.count = count
    pointer = .allocate(capacity: max(1, count))
  }

  deinit { pointer.deallocate() }
}
