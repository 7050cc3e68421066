#if canImport(MapKit)
  public import MapKit

  /// A geophoto photo as a MapKit annotation: add `client.near(…)`'s answers to an
  /// `MKMapView` (or a SwiftUI `Map`) as they are.
  ///
  /// ```swift
  /// let pins = try await client.near(latitude: 35.68, longitude: 139.76).map(PhotoPin.init)
  /// mapView.addAnnotations(pins)
  /// ```
  public final class PhotoPin: NSObject, MKAnnotation {
    public let photo: MapAnnotation

    public init(_ photo: MapAnnotation) { self.photo = photo }

    public var coordinate: CLLocationCoordinate2D {
      CLLocationCoordinate2D(latitude: photo.coordinate.latitude, longitude: photo.coordinate.longitude)
    }
    public var title: String? { photo.title }
    public var subtitle: String? { photo.subtitle }
  }
#endif
