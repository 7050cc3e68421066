/// The OpenAPI 3 description of the HTTP API, served at `/openapi.json`. Tests check that every
/// documented path answers and every answering path is documented.
enum OpenAPIDocument {
  static let json = """
    {
      "openapi": "3.0.3",
      "info": {
        "title": "geophoto",
        "version": "0.1.0",
        "description": "Annotation lists for map clients: the photos near a place, pins and clusters for a viewport, cluster members and photo details. Coordinates are WGS84 degrees; GeoJSON positions are [longitude, latitude]. Every JSON answer carries a strong ETag (index generation + normalized query) and Cache-Control; If-None-Match gets 304. When the server has a token, /v1 requests need 'Authorization: Bearer <token>'."
      },
      "servers": [
        {
          "url": "/"
        }
      ],
      "paths": {
        "/v1/near": {
          "get": {
            "summary": "Photos nearest to a point, nearest first (exact great-circle order, ties by id)",
            "operationId": "near",
            "parameters": [
              {
                "name": "lat",
                "in": "query",
                "description": "Latitude in degrees",
                "required": true,
                "schema": {
                  "type": "number",
                  "minimum": -90,
                  "maximum": 90
                }
              },
              {
                "name": "lon",
                "in": "query",
                "description": "Longitude in degrees",
                "required": true,
                "schema": {
                  "type": "number",
                  "minimum": -180,
                  "maximum": 180
                }
              },
              {
                "name": "limit",
                "in": "query",
                "description": "Most photos to return",
                "required": false,
                "schema": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 1000,
                  "default": 20
                }
              },
              {
                "name": "radius",
                "in": "query",
                "description": "Only photos within this distance: metres, or with a unit (500m, 2km, 1mi)",
                "required": false,
                "schema": {
                  "type": "string",
                  "example": "2km"
                }
              },
              {
                "name": "source",
                "in": "query",
                "description": "Only these sources (comma-separated or repeated)",
                "required": false,
                "schema": {
                  "type": "string",
                  "example": "local,flickr"
                }
              },
              {
                "name": "format",
                "in": "query",
                "description": "json (default) or geojson; 'Accept: application/geo+json' also selects GeoJSON",
                "required": false,
                "schema": {
                  "type": "string",
                  "enum": [
                    "json",
                    "geojson"
                  ]
                }
              }
            ],
            "responses": {
              "200": {
                "description": "The annotations",
                "headers": {
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/NearResult"
                    }
                  },
                  "application/geo+json": {
                    "schema": {
                      "$ref": "#/components/schemas/FeatureCollection"
                    }
                  }
                }
              },
              "304": {
                "description": "Not modified"
              },
              "400": {
                "$ref": "#/components/responses/Error"
              },
              "401": {
                "$ref": "#/components/responses/Error"
              }
            }
          }
        },
        "/v1/annotations": {
          "get": {
            "summary": "Pins and clusters for a map viewport (supercluster semantics: radius 40 px at extent 512, zoom 0-16 clustered)",
            "operationId": "annotations",
            "parameters": [
              {
                "name": "bbox",
                "in": "query",
                "description": "west,south,east,north in degrees; west > east crosses the antimeridian",
                "required": true,
                "schema": {
                  "type": "string",
                  "example": "139.70,35.64,139.82,35.72"
                }
              },
              {
                "name": "zoom",
                "in": "query",
                "description": "Map zoom; fractions are rounded down",
                "required": true,
                "schema": {
                  "type": "number",
                  "minimum": 0,
                  "maximum": 30
                }
              }
            ],
            "responses": {
              "200": {
                "description": "Photos and clusters (at most the configured cap; then 'truncated': true and 'total')",
                "headers": {
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  }
                },
                "content": {
                  "application/geo+json": {
                    "schema": {
                      "$ref": "#/components/schemas/FeatureCollection"
                    }
                  }
                }
              },
              "304": {
                "description": "Not modified"
              },
              "400": {
                "$ref": "#/components/responses/Error"
              },
              "401": {
                "$ref": "#/components/responses/Error"
              }
            }
          }
        },
        "/v1/clusters/{id}/leaves": {
          "get": {
            "summary": "The photos inside a cluster, paged",
            "operationId": "clusterLeaves",
            "parameters": [
              {
                "name": "id",
                "in": "path",
                "description": "cluster_id from /v1/annotations",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              {
                "name": "limit",
                "in": "query",
                "description": "Page size",
                "required": false,
                "schema": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 1000,
                  "default": 10
                }
              },
              {
                "name": "offset",
                "in": "query",
                "description": "Photos to skip",
                "required": false,
                "schema": {
                  "type": "integer",
                  "minimum": 0,
                  "default": 0
                }
              }
            ],
            "responses": {
              "200": {
                "description": "One page of photos",
                "content": {
                  "application/geo+json": {
                    "schema": {
                      "$ref": "#/components/schemas/FeatureCollection"
                    }
                  }
                }
              },
              "304": {
                "description": "Not modified"
              },
              "400": {
                "$ref": "#/components/responses/Error"
              },
              "401": {
                "$ref": "#/components/responses/Error"
              },
              "404": {
                "$ref": "#/components/responses/Error"
              }
            }
          }
        },
        "/v1/photos/{id}": {
          "get": {
            "summary": "One photo's details",
            "operationId": "photo",
            "parameters": [
              {
                "name": "id",
                "in": "path",
                "description": "Photo id",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            ],
            "responses": {
              "200": {
                "description": "The photo",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Photo"
                    }
                  }
                }
              },
              "304": {
                "description": "Not modified"
              },
              "400": {
                "$ref": "#/components/responses/Error"
              },
              "401": {
                "$ref": "#/components/responses/Error"
              },
              "404": {
                "$ref": "#/components/responses/Error"
              }
            }
          }
        },
        "/v1/photos/{id}/thumbnail": {
          "get": {
            "summary": "The JPEG thumbnail embedded in a local photo's EXIF, or a redirect to a remote photo's thumbnail",
            "operationId": "thumbnail",
            "parameters": [
              {
                "name": "id",
                "in": "path",
                "description": "Photo id",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            ],
            "responses": {
              "200": {
                "description": "JPEG",
                "content": {
                  "image/jpeg": {
                    "schema": {
                      "type": "string",
                      "format": "binary"
                    }
                  }
                }
              },
              "302": {
                "description": "Redirect to the provider's thumbnail"
              },
              "400": {
                "$ref": "#/components/responses/Error"
              },
              "401": {
                "$ref": "#/components/responses/Error"
              },
              "404": {
                "$ref": "#/components/responses/Error"
              }
            }
          }
        },
        "/healthz": {
          "get": {
            "summary": "Liveness, with the index generation and photo count",
            "operationId": "health",
            "responses": {
              "200": {
                "description": "Healthy",
                "content": {
                  "application/json": {
                    "schema": {
                      "type": "object",
                      "properties": {
                        "status": {
                          "type": "string"
                        },
                        "generation": {
                          "type": "integer"
                        },
                        "photos": {
                          "type": "integer"
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        },
        "/openapi.json": {
          "get": {
            "summary": "This document",
            "operationId": "openapi",
            "responses": {
              "200": {
                "description": "OpenAPI 3 document",
                "content": {
                  "application/json": {
                    "schema": {
                      "type": "object"
                    }
                  }
                }
              }
            }
          }
        }
      },
      "components": {
        "headers": {
          "ETag": {
            "description": "Strong validator: index generation and normalized query",
            "schema": {
              "type": "string"
            }
          }
        },
        "responses": {
          "Error": {
            "description": "An error",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        },
        "schemas": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "type": "object",
                "required": [
                  "code",
                  "message"
                ],
                "properties": {
                  "code": {
                    "type": "string"
                  },
                  "message": {
                    "type": "string"
                  }
                }
              }
            }
          },
          "Coordinate": {
            "type": "object",
            "required": [
              "latitude",
              "longitude"
            ],
            "properties": {
              "latitude": {
                "type": "number"
              },
              "longitude": {
                "type": "number"
              }
            }
          },
          "Annotation": {
            "type": "object",
            "required": [
              "id",
              "source",
              "coordinate",
              "title",
              "subtitle"
            ],
            "properties": {
              "id": {
                "type": "integer"
              },
              "source": {
                "type": "string",
                "enum": [
                  "local",
                  "flickr",
                  "commons"
                ]
              },
              "coordinate": {
                "$ref": "#/components/schemas/Coordinate"
              },
              "title": {
                "type": "string"
              },
              "subtitle": {
                "type": "string"
              },
              "distance": {
                "type": "number",
                "nullable": true,
                "description": "Metres from the query point"
              },
              "takenAt": {
                "type": "string",
                "nullable": true,
                "description": "ISO 8601, with the UTC offset when known"
              },
              "url": {
                "type": "string",
                "description": "The photo's page, for remote photos"
              },
              "thumbnailURL": {
                "type": "string"
              }
            }
          },
          "NearResult": {
            "type": "object",
            "required": [
              "query",
              "annotations"
            ],
            "properties": {
              "query": {
                "type": "object",
                "properties": {
                  "latitude": {
                    "type": "number"
                  },
                  "longitude": {
                    "type": "number"
                  },
                  "limit": {
                    "type": "integer"
                  },
                  "radius": {
                    "type": "number",
                    "nullable": true
                  }
                }
              },
              "annotations": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Annotation"
                }
              }
            }
          },
          "FeatureCollection": {
            "type": "object",
            "required": [
              "type",
              "features"
            ],
            "properties": {
              "type": {
                "type": "string",
                "enum": [
                  "FeatureCollection"
                ]
              },
              "features": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "type",
                    "geometry",
                    "properties"
                  ],
                  "properties": {
                    "type": {
                      "type": "string",
                      "enum": [
                        "Feature"
                      ]
                    },
                    "id": {
                      "type": "integer"
                    },
                    "geometry": {
                      "type": "object",
                      "properties": {
                        "type": {
                          "type": "string",
                          "enum": [
                            "Point"
                          ]
                        },
                        "coordinates": {
                          "type": "array",
                          "items": {
                            "type": "number"
                          },
                          "minItems": 2,
                          "maxItems": 2,
                          "description": "[longitude, latitude]"
                        }
                      }
                    },
                    "properties": {
                      "type": "object",
                      "description": "Photo fields, or cluster, cluster_id, point_count, point_count_abbreviated, expansion_zoom"
                    }
                  }
                }
              },
              "truncated": {
                "type": "boolean"
              },
              "total": {
                "type": "integer"
              }
            }
          },
          "Photo": {
            "type": "object",
            "required": [
              "id",
              "source",
              "coordinate",
              "title"
            ],
            "properties": {
              "id": {
                "type": "integer"
              },
              "source": {
                "type": "string"
              },
              "coordinate": {
                "$ref": "#/components/schemas/Coordinate"
              },
              "title": {
                "type": "string"
              },
              "subtitle": {
                "type": "string"
              },
              "takenAt": {
                "type": "string",
                "nullable": true
              },
              "altitude": {
                "type": "number",
                "nullable": true
              },
              "cameraMake": {
                "type": "string",
                "nullable": true
              },
              "cameraModel": {
                "type": "string",
                "nullable": true
              },
              "width": {
                "type": "integer",
                "nullable": true
              },
              "height": {
                "type": "integer",
                "nullable": true
              },
              "orientation": {
                "type": "integer",
                "nullable": true
              },
              "attribution": {
                "type": "string",
                "nullable": true
              },
              "license": {
                "type": "string",
                "nullable": true
              },
              "url": {
                "type": "string",
                "nullable": true
              },
              "thumbnailURL": {
                "type": "string"
              }
            }
          }
        }
      }
    }
    """
}
