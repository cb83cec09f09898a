// ggp-base's verdict on GDL files: its StaticValidator (griddle 0.2.2) and its prover.
//
// Compile against the shared build (never into the repository):
//   CP=$(cat /work/tools/ggp-base/classpath.txt)
//   javac -cp "$CP" -d /tmp/refvalidate benchmarks/ggp_reference/RefValidate.java
// Static validation of many files, one JSON line each (path relative to ROOT):
//   java -cp "$CP:/tmp/refvalidate" RefValidate static ROOT FILE...
// A random playout by ggp-base's ProverStateMachine (what "its prover plays" means):
//   java -cp "$CP:/tmp/refvalidate" RefValidate prove FILE SECONDS MAX_STEPS SEED
// benchmarks/gdl_validate_sweep.py drives both and writes tests/data/gdl/reference_validator.json.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.ggp.base.util.game.Game;
import org.ggp.base.util.gdl.grammar.Gdl;
import org.ggp.base.util.statemachine.MachineState;
import org.ggp.base.util.statemachine.Move;
import org.ggp.base.util.statemachine.Role;
import org.ggp.base.util.statemachine.StateMachine;
import org.ggp.base.util.statemachine.implementation.prover.ProverStateMachine;
import org.ggp.base.validator.StaticValidator;
import org.ggp.base.validator.ValidatorException;
import org.ggp.base.validator.ValidatorWarning;

public final class RefValidate {
    public static void main(String[] args) throws Exception {
        // ggp-base prints parse errors' stack traces on stderr; the verdict goes to stdout.
        if (args.length >= 2 && args[0].equals("static")) {
            Path root = Paths.get(args[1]);
            for (int i = 2; i < args.length; i++) {
                System.out.println(staticVerdict(root, Paths.get(args[i])));
            }
        } else if (args.length == 5 && args[0].equals("prove")) {
            System.out.println(prove(Paths.get(args[1]), Double.parseDouble(args[2]),
                    Integer.parseInt(args[3]), Long.parseLong(args[4])));
        } else {
            System.err.println("usage: RefValidate static ROOT FILE... | prove FILE SECONDS MAX_STEPS SEED");
            System.exit(2);
        }
    }

    private static List<Gdl> rules(Path file) throws Exception {
        String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        return Game.createEphemeralGame(Game.preprocessRulesheet(text)).getRules();
    }

    private static String staticVerdict(Path root, Path file) {
        String path = json(root.relativize(file.toAbsolutePath()).toString());
        try {
            List<Gdl> rules = rules(file);
            if (rules == null) {
                return "{\"path\": " + path + ", \"verdict\": \"reject\", \"message\": "
                        + json("ggp-base cannot parse the file") + "}";
            }
            List<ValidatorWarning> warnings = StaticValidator.validateDescription(rules);
            return "{\"path\": " + path + ", \"verdict\": \"accept\", \"warnings\": "
                    + warnings.size() + "}";
        } catch (ValidatorException e) {
            return "{\"path\": " + path + ", \"verdict\": \"reject\", \"message\": "
                    + json(e.getMessage()) + "}";
        } catch (Exception | StackOverflowError e) {
            return "{\"path\": " + path + ", \"verdict\": \"reject\", \"message\": "
                    + json(e.getClass().getSimpleName() + ": " + e.getMessage()) + "}";
        }
    }

    private static String prove(Path file, double seconds, int maxSteps, long seed) {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        Random random = new Random(seed);
        int steps = 0;
        try {
            StateMachine machine = new ProverStateMachine();
            machine.initialize(rules(file));
            MachineState state = machine.getInitialState();
            while (!machine.isTerminal(state)) {
                if (steps >= maxSteps || System.nanoTime() > deadline) {
                    return result(file, "unfinished", steps, "");
                }
                List<Move> joint = new ArrayList<Move>();
                for (Role role : machine.getRoles()) {
                    List<Move> legal = machine.getLegalMoves(state, role);
                    joint.add(legal.get(random.nextInt(legal.size())));
                }
                state = machine.getNextState(state, joint);
                steps++;
            }
            List<Integer> goals = machine.getGoals(state);
            return result(file, "terminal", steps, goals.toString());
        } catch (Exception | StackOverflowError e) {
            return result(file, "error", steps, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static String result(Path file, String outcome, int steps, String detail) {
        return "{\"path\": " + json(file.toString()) + ", \"prover\": " + json(outcome)
                + ", \"steps\": " + steps + ", \"detail\": " + json(detail) + "}";
    }

    private static String json(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
