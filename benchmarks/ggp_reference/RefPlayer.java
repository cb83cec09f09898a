import org.ggp.base.player.GamePlayer;
import org.ggp.base.player.gamer.Gamer;

/**
 * Starts one ggp-base gamer on a fixed loopback port, e.g.
 *   java -cp CP RefPlayer 9147 org.ggp.base.player.gamer.statemachine.sample.SampleMonteCarloGamer
 * (ggp-base's PlayerRunner finds gamers by classpath scanning and GamePlayer.main only starts a
 * RandomGamer; this takes the class name.)  Unlike GamePlayer it refuses to move to another port
 * when the one asked for is taken: the benchmark must know where its opponent listens.
 */
public final class RefPlayer {
    private RefPlayer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: RefPlayer PORT GAMER_CLASS");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        Gamer gamer = (Gamer) Class.forName(args[1]).getDeclaredConstructor().newInstance();
        GamePlayer player = new GamePlayer(port, gamer);
        if (player.getGamerPort() != port) {
            System.err.println("port " + port + " is taken");
            System.exit(2);
        }
        System.out.println("RefPlayer " + args[1] + " listening on 127.0.0.1:" + port);
        System.out.flush();
        player.start();
        player.join();
    }
}
