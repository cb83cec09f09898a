import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.ggp.base.server.GameServer;
import org.ggp.base.server.event.ServerCompletedMatchEvent;
import org.ggp.base.server.event.ServerConnectionErrorEvent;
import org.ggp.base.server.event.ServerIllegalMoveEvent;
import org.ggp.base.server.event.ServerNewGameStateEvent;
import org.ggp.base.server.event.ServerNewMovesEvent;
import org.ggp.base.server.event.ServerTimeoutEvent;
import org.ggp.base.util.game.Game;
import org.ggp.base.util.match.Match;
import org.ggp.base.util.observer.Event;
import org.ggp.base.util.observer.Observer;
import org.ggp.base.util.statemachine.Move;
import org.ggp.base.util.statemachine.Role;

/**
 * Runs one match judged by ggp-base's own GameServer (late, illegal and failed replies are replaced
 * by a random legal move, the ProverStateMachine applies the rules) and writes a JSON record:
 *   java -cp CP RefMatch GAME.kif START PLAY OUT.json host:port [host:port ...]
 * One host:port per role, in the order of the game's role declarations.  The record has the roles,
 * the goals, the joint moves of every step, every illegal/timeout/connection-error event with its
 * phase ("start", "play" with the 1-based step, or "stop") and the wall time of every step.
 */
public final class RefMatch {
    private RefMatch() {
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            if (c < 0x20) {
                b.append(' ');
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static final class Recorder implements Observer {
        final List<String> events = new ArrayList<>();
        final List<String> moves = new ArrayList<>();
        final List<Long> stepMillis = new ArrayList<>();
        String phase = "start";
        int step = 0;
        long stepStart = System.currentTimeMillis();
        List<Integer> goals = null;

        private void event(String kind, Role role, String move) {
            events.add("{\"phase\": " + quote(phase) + ", \"step\": " + step + ", \"role\": "
                    + quote(role.getName().toString()) + ", \"kind\": " + quote(kind)
                    + (move == null ? "" : ", \"move\": " + quote(move)) + "}");
        }

        @Override
        public synchronized void observe(Event e) {
            if (e instanceof ServerNewGameStateEvent && goals == null) {
                phase = "play";
                step += 1;
                stepStart = System.currentTimeMillis();
            } else if (e instanceof ServerNewMovesEvent) {
                stepMillis.add(System.currentTimeMillis() - stepStart);
                List<String> joint = new ArrayList<>();
                for (Move m : ((ServerNewMovesEvent) e).getMoves()) {
                    joint.add(quote(m.toString()));
                }
                moves.add("[" + String.join(", ", joint) + "]");
            } else if (e instanceof ServerCompletedMatchEvent) {
                goals = ((ServerCompletedMatchEvent) e).getGoals();
                phase = "stop";
            } else if (e instanceof ServerIllegalMoveEvent) {
                ServerIllegalMoveEvent i = (ServerIllegalMoveEvent) e;
                event("illegal", i.getRole(), i.getMove() == null ? "(unparsable)" : i.getMove().toString());
            } else if (e instanceof ServerTimeoutEvent) {
                event("timeout", ((ServerTimeoutEvent) e).getRole(), null);
            } else if (e instanceof ServerConnectionErrorEvent) {
                event("connection-error", ((ServerConnectionErrorEvent) e).getRole(), null);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: RefMatch GAME.kif START PLAY OUT.json host:port [host:port ...]");
            System.exit(2);
        }
        String kif = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8);
        int startClock = Integer.parseInt(args[1]);
        int playClock = Integer.parseInt(args[2]);
        List<String> hosts = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            String[] hp = args[i].split(":");
            hosts.add(hp[0]);
            ports.add(Integer.parseInt(hp[1]));
        }
        Game game = Game.createEphemeralGame(Game.preprocessRulesheet(kif));
        String matchId = "ref." + System.currentTimeMillis();
        Match match = new Match(matchId, -1, startClock, playClock, game, "");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            names.add("player" + i);
        }
        match.setPlayerNamesFromHost(names);
        long t0 = System.currentTimeMillis();
        GameServer server = new GameServer(match, hosts, ports);
        List<Role> roles = server.getStateMachine().getRoles();
        if (roles.size() != hosts.size()) {
            System.err.println("the game has " + roles.size() + " roles, got " + hosts.size() + " players");
            System.exit(2);
        }
        Recorder rec = new Recorder();
        server.addObserver(rec);
        server.start();
        server.join();
        long elapsed = System.currentTimeMillis() - t0;
        List<String> roleNames = new ArrayList<>();
        for (Role r : roles) {
            roleNames.add(quote(r.getName().toString()));
        }
        List<String> goals = new ArrayList<>();
        if (rec.goals != null) {
            for (Integer g : rec.goals) {
                goals.add(g.toString());
            }
        }
        List<String> ms = new ArrayList<>();
        for (Long m : rec.stepMillis) {
            ms.add(m.toString());
        }
        String json = "{\"judge\": \"ggp-base GameServer\", \"match_id\": " + quote(matchId)
                + ", \"start_clock\": " + startClock + ", \"play_clock\": " + playClock
                + ", \"roles\": [" + String.join(", ", roleNames) + "]"
                + ", \"completed\": " + (rec.goals != null)
                + ", \"goals\": [" + String.join(", ", goals) + "]"
                + ", \"steps\": " + rec.moves.size()
                + ", \"elapsed_ms\": " + elapsed
                + ", \"step_ms\": [" + String.join(", ", ms) + "]"
                + ", \"events\": [" + String.join(", ", rec.events) + "]"
                + ", \"moves\": [" + String.join(", ", rec.moves) + "]}\n";
        Files.write(Paths.get(args[3]), json.getBytes(StandardCharsets.UTF_8));
        System.out.println(json);
        System.exit(rec.goals != null ? 0 : 1);
    }
}
