import GeoPhotoHTTPD

/// Turns what went wrong into an answer: an `APIError` into its status and JSON body (with
/// `WWW-Authenticate` on 401 and `Allow` on 405), anything else into a 500 that says nothing
/// about the server's insides.
struct ErrorAnswers: Middleware {
  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    do {
      return try next(request)
    } catch let error as APIError {
      var response = ServerResponse(
        status: error.status, headers: [("Content-Type", "application/json")], body: error.body)
      if error.status == 401 { response.headers.append(("WWW-Authenticate", "Bearer")) }
      if error.status == 405 { response.headers.append(("Allow", "GET, HEAD, OPTIONS")) }
      return response
    } catch {
      let failure = APIError(500, "internal_error", "the server failed to answer")
      return ServerResponse(status: 500, headers: [("Content-Type", "application/json")], body: failure.body)
    }
  }
}
