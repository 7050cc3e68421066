import GeoPhotoCore
import Testing

/// One rule for every cache folder.
@Suite struct CacheFolderTests {
  @Test func theServiceThenXDGThenHome() {
    #expect(
      CacheFolder.geophoto(environment: ["CACHE_DIRECTORY": "/var/cache/geophoto:/x", "HOME": "/h"]).path
        == "/var/cache/geophoto")
    #expect(CacheFolder.geophoto(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]).path == "/c/geophoto")
    // A relative XDG_CACHE_HOME is ignored, as the XDG specification says.
    #expect(CacheFolder.geophoto(environment: ["XDG_CACHE_HOME": "c", "HOME": "/h"]).path == "/h/.cache/geophoto")
    #expect(CacheFolder.geophoto(environment: ["HOME": "/h"]).path == "/h/.cache/geophoto")
  }
}
