package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cellar.CellarConfig;
import dev.cellar.observe.http.InfoServerConfig;
import dev.cellar.server.NettyLeakCheck;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Under {@code cellar serve} the info server's summary names the port the server answers on. */
@ExtendWith(NettyLeakCheck.class)
class ServedInfoSummaryTest {

  @TempDir Path directory;

  @Test
  void theSummaryNamesTheServersRpcAndInfoPorts() throws Exception {
    CellarConfig config = CellarConfig.defaults().with(InfoServerConfig.PORT_KEY, "0");
    try (ServedDatabase served = ServedDatabase.start(directory, config)) {
      int infoPort = served.server.database().infoServerAddress().orElseThrow().getPort();
      JsonObject summary =
          JsonParser.parseString(
                  HttpClient.newHttpClient()
                      .send(
                          HttpRequest.newBuilder(
                                  URI.create("http://127.0.0.1:" + infoPort + "/api/server"))
                              .build(),
                          HttpResponse.BodyHandlers.ofString())
                      .body())
              .getAsJsonObject();
      assertEquals(
          served.server.address().getPort(), summary.get("rpcPort").getAsInt(), summary.toString());
      assertEquals(infoPort, summary.get("infoPort").getAsInt(), summary.toString());
    }
  }
}
