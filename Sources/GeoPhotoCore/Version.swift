/// geophoto's version, as `--version`, the User-Agent and the OpenAPI document give it.
public enum GeoPhotoVersion {
  public static let current = "0.1.0"
}
