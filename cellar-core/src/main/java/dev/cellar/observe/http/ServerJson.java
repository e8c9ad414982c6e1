package dev.cellar.observe.http;

import dev.cellar.observe.JsonWriter;
import dev.cellar.observe.ObservedDatabase;

/**
 * What the UI's summary says about the process: {@code {"version":...,"serverName":...,
 * "startMillis":...,"nowMillis":...,"uptimeMillis":...,"directory":...,"infoPort":...,
 * "rpcPort":...}}, times in milliseconds since the epoch (the page formats them), {@code rpcPort}
 * null when no server answers RPCs over the database (an embedded one).
 */
final class ServerJson {

  private ServerJson() {}

  static String render(
      ObservedDatabase database, String version, int infoPort, int rpcPort, long nowMillis) {
    StringBuilder text = new StringBuilder();
    JsonWriter json = new JsonWriter(text);
    json.beginObject()
        .name("version")
        .value(version)
        .name("serverName")
        .value(database.serverName())
        .name("startMillis")
        .value(database.startMillis())
        .name("nowMillis")
        .value(nowMillis)
        .name("uptimeMillis")
        .value(Math.max(0, nowMillis - database.startMillis()))
        .name("directory")
        .value(database.directory())
        .name("infoPort")
        .value(infoPort)
        .name("rpcPort");
    if (rpcPort < 0) {
      json.nullValue();
    } else {
      json.value(rpcPort);
    }
    json.endObject();
    return text.toString();
  }
}
