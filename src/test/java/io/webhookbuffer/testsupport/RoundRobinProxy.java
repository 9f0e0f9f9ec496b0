package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A round-robin TCP balancer on 127.0.0.1 in front of several replicas, as a Kubernetes Service without affinity is:
 * each new connection goes to the next replica, and one that refuses the connection (killed) is skipped. A client that
 * wants one request per replica in turn opens a connection per request ({@code Connection: close}).
 */
public final class RoundRobinProxy implements AutoCloseable {

    private final List<Integer> backends;
    private final ServerSocket server;
    private final AtomicInteger next = new AtomicInteger();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService pipes = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "round-robin-pipe");
        t.setDaemon(true);
        return t;
    });

    public RoundRobinProxy(List<Integer> backendPorts) throws IOException {
        this.backends = List.copyOf(backendPorts);
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress("127.0.0.1", 0), 512);
        Thread accept = new Thread(this::acceptLoop, "round-robin-accept");
        accept.setDaemon(true);
        accept.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                pipes.execute(() -> route(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void route(Socket client) {
        sockets.add(client);
        Socket backend = connect();
        if (backend == null) {
            closeQuietly(client); // no replica answers: the client sees the connection close
            return;
        }
        sockets.add(backend);
        pipes.execute(() -> pipe(client, backend));
        pipe(backend, client);
    }

    /** The next replica that accepts a connection, trying each at most once. */
    private Socket connect() {
        for (int tried = 0; tried < backends.size(); tried++) {
            int port = backends.get(Math.floorMod(next.getAndIncrement(), backends.size()));
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                s.setTcpNoDelay(true);
                return s;
            } catch (IOException e) {
                closeQuietly(s);
            }
        }
        return null;
    }

    private void pipe(Socket from, Socket to) {
        byte[] buf = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away: close both
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void closeQuietly(Socket s) {
        sockets.remove(s);
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(this::closeQuietly);
        pipes.shutdownNow();
    }
}
