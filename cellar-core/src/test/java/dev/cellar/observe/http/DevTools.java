package dev.cellar.observe.http;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A headless Chromium driven over the DevTools protocol (its JSON messages on a WebSocket, with the
 * JDK's client): navigate, evaluate a script, take a screenshot. One page; {@link #close()} ends
 * the browser and removes its profile.
 *
 * <p>Concurrency: the WebSocket's listener completes the pending calls by id; callers wait on their
 * own call's future.
 */
final class DevTools implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final long CALL_SECONDS = 30;

  private final Process process;
  private final Path profile;
  private final WebSocket socket;
  private final Map<Integer, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  private DevTools(Process process, Path profile, WebSocket socket) {
    this.process = process;
    this.profile = profile;
    this.socket = socket;
  }

  /** Starts Chromium headless with a fresh profile and connects to its first page. */
  static DevTools start() throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("cellar-chromium-");
    Process process =
        new ProcessBuilder(
                CHROMIUM.toString(),
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--hide-scrollbars",
                "--window-size=1280,1000",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                "about:blank")
            .redirectErrorStream(true)
            .start();
    try {
      String browserUrl = listeningUrl(process);
      URI endpoint = URI.create(browserUrl);
      HttpClient http = HttpClient.newHttpClient();
      String list =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://"
                                  + endpoint.getHost()
                                  + ":"
                                  + endpoint.getPort()
                                  + "/json/list"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      String pageUrl = null;
      for (JsonElement target : JsonParser.parseString(list).getAsJsonArray()) {
        JsonObject object = target.getAsJsonObject();
        if (object.get("type").getAsString().equals("page")) {
          pageUrl = object.get("webSocketDebuggerUrl").getAsString();
          break;
        }
      }
      if (pageUrl == null) {
        throw new IOException("Chromium lists no page: " + list);
      }
      DevTools[] holder = new DevTools[1];
      Listener listener = new Listener(holder);
      WebSocket socket =
          http.newWebSocketBuilder()
              .buildAsync(URI.create(pageUrl), listener)
              .get(CALL_SECONDS, TimeUnit.SECONDS);
      holder[0] = new DevTools(process, profile, socket);
      return holder[0];
    } catch (IOException | InterruptedException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    } catch (Exception e) {
      process.destroyForcibly();
      throw new IOException("cannot connect to Chromium: " + e, e);
    }
  }

  /** The browser's DevTools URL from its first lines of output. */
  private static String listeningUrl(Process process) throws IOException {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    List<String> seen = new ArrayList<>();
    String line;
    while ((line = reader.readLine()) != null) {
      int at = line.indexOf("ws://");
      if (line.contains("DevTools listening on") && at >= 0) {
        Thread.ofPlatform().daemon().start(() -> drain(reader));
        return line.substring(at).trim();
      }
      seen.add(line);
    }
    throw new IOException("Chromium exited before listening: " + String.join("\n", seen));
  }

  private static void drain(BufferedReader reader) {
    try {
      while (reader.readLine() != null) {
        // Chromium's own log lines: not needed
      }
    } catch (IOException e) {
      // the browser closed its output
    }
  }

  /** Calls DevTools method {@code method} and returns its result. */
  JsonObject call(String method, JsonObject params) throws Exception {
    int id = ids.incrementAndGet();
    JsonObject message = new JsonObject();
    message.addProperty("id", id);
    message.addProperty("method", method);
    message.add("params", params == null ? new JsonObject() : params);
    CompletableFuture<JsonObject> reply = new CompletableFuture<>();
    pending.put(id, reply);
    socket.sendText(message.toString(), true).get(CALL_SECONDS, TimeUnit.SECONDS);
    JsonObject answer = reply.get(CALL_SECONDS, TimeUnit.SECONDS);
    if (answer.has("error")) {
      throw new IOException(method + " failed: " + answer.get("error"));
    }
    return answer.getAsJsonObject("result");
  }

  void navigate(String url) throws Exception {
    JsonObject params = new JsonObject();
    params.addProperty("url", url);
    call("Page.navigate", params);
  }

  /** The value of {@code expression} (awaited if a promise), as JSON. */
  JsonElement evaluate(String expression) throws Exception {
    JsonObject params = new JsonObject();
    params.addProperty("expression", expression);
    params.addProperty("returnByValue", true);
    params.addProperty("awaitPromise", true);
    JsonObject result = call("Runtime.evaluate", params);
    if (result.has("exceptionDetails")) {
      throw new IOException("script failed: " + result.get("exceptionDetails"));
    }
    JsonObject value = result.getAsJsonObject("result");
    return value.has("value") ? value.get("value") : null;
  }

  /** Evaluates {@code expression} until it is true, up to {@code seconds}. */
  void await(String expression, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      JsonElement value = evaluate(expression);
      if (value != null && value.isJsonPrimitive() && value.getAsBoolean()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("not true within " + seconds + " s: " + expression);
  }

  void screenshot(Path file) throws Exception {
    JsonObject params = new JsonObject();
    params.addProperty("format", "png");
    String data = call("Page.captureScreenshot", params).get("data").getAsString();
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode(data));
  }

  @Override
  public void close() throws IOException {
    socket.abort();
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try (var files = Files.walk(profile)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  /** Joins a message's frames and completes the call it answers. */
  private static final class Listener implements WebSocket.Listener {
    private final DevTools[] owner;
    private final StringBuilder partial = new StringBuilder();

    Listener(DevTools[] owner) {
      this.owner = owner;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        JsonObject message = JsonParser.parseString(partial.toString()).getAsJsonObject();
        partial.setLength(0);
        if (message.has("id") && owner[0] != null) {
          CompletableFuture<JsonObject> call =
              owner[0].pending.remove(message.get("id").getAsInt());
          if (call != null) {
            call.complete(message);
          }
        }
      }
      webSocket.request(1);
      return null;
    }
  }
}
