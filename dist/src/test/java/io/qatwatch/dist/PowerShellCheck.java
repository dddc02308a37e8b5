package io.qatwatch.dist;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A structural check of a PowerShell script, for a machine without PowerShell: comments, single- and
 * double-quoted strings (with {@code $( )} inside), here-strings and backtick escapes are scanned, then
 * brackets must balance and nest, strings and comments must end, and every variable read must be a
 * parameter, assigned, a foreach variable or automatic (Set-StrictMode would stop the script on it only
 * when that line runs). It is not a parser: it cannot tell a misspelt cmdlet or a wrong argument.
 */
final class PowerShellCheck {

    private static final Set<String> AUTOMATIC = Set.of("true", "false", "null", "_", "args", "PSScriptRoot",
            "LASTEXITCODE", "ErrorActionPreference", "Matches", "PSCmdlet", "Host", "PWD", "HOME");
    private static final Pattern VARIABLE = Pattern.compile("\\$(?:\\{([A-Za-z_][\\w]*)}|([A-Za-z_][\\w]*))(:?)");
    private static final Pattern ASSIGNED = Pattern.compile("\\$([A-Za-z_]\\w*)\\s*(?:=(?!=)|\\+=|-=)");
    private static final Pattern FOREACH = Pattern.compile("(?i)foreach\\s*\\(\\s*\\$([A-Za-z_]\\w*)\\s+in\\b");
    private static final Pattern PARAM_BLOCK = Pattern.compile("(?i)\\bparam\\s*\\(");
    private static final Pattern PARAMETER = Pattern.compile("(?m)^\\s*(?:\\[(?:[^\\[\\]]|\\[])*]\\s*)*\\$([A-Za-z_]\\w*)");

    private final String source;
    private final List<String> problems = new ArrayList<>();
    /** Code outside strings and comments, with string contents blanked, for the variable check. */
    private final StringBuilder code = new StringBuilder();
    /** Text of double-quoted strings, where variables expand. */
    private final StringBuilder expanded = new StringBuilder();
    private int pos;

    private PowerShellCheck(String source) {
        this.source = source;
    }

    /** What is structurally wrong with the script, each with its line; empty when nothing is. */
    static List<String> problems(String source) {
        PowerShellCheck check = new PowerShellCheck(source);
        check.scanCode(null);
        if (check.problems.isEmpty()) {
            check.checkVariables();
        }
        return check.problems;
    }

    private void scanCode(Character closing) {
        Deque<int[]> open = new ArrayDeque<>();
        while (pos < source.length()) {
            char c = source.charAt(pos);
            if (c == '`') {
                code.append(' ');
                pos += 2;
            } else if (source.startsWith("<#", pos)) {
                skipBlockComment();
            } else if (c == '#' && (pos == 0 || Character.isWhitespace(source.charAt(pos - 1)) || source.charAt(pos - 1) == ';')) {
                while (pos < source.length() && source.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (source.startsWith("@'", pos) || source.startsWith("@\"", pos)) {
                if (!hereString()) {
                    code.append(c);
                    pos++;
                }
            } else if (c == '\'') {
                singleQuoted();
            } else if (c == '"') {
                doubleQuoted();
            } else if (c == '(' || c == '{' || c == '[') {
                open.push(new int[] {c, line(pos)});
                code.append(c);
                pos++;
            } else if (c == ')' || c == '}' || c == ']') {
                if (open.isEmpty()) {
                    if (closing != null && c == closing) {
                        pos++;
                        return;
                    }
                    problems.add("line " + line(pos) + ": '" + c + "' closes nothing");
                } else {
                    int[] top = open.pop();
                    if (c != matching((char) top[0])) {
                        problems.add("line " + line(pos) + ": '" + c + "' closes '" + (char) top[0] + "' opened on line " + top[1]);
                    }
                }
                code.append(c);
                pos++;
            } else {
                code.append(c);
                pos++;
            }
        }
        for (int[] unclosed : open) {
            problems.add("line " + unclosed[1] + ": '" + (char) unclosed[0] + "' is never closed");
        }
        if (closing != null) {
            problems.add("end of file inside a $( ) subexpression");
        }
    }

    private void skipBlockComment() {
        int start = pos;
        int end = source.indexOf("#>", pos + 2);
        if (end < 0) {
            problems.add("line " + line(start) + ": block comment <# is never closed with #>");
            pos = source.length();
        } else {
            pos = end + 2;
        }
    }

    /** Here-strings start with @' or @" at the end of a line and end with '@ or "@ at the start of one. */
    private boolean hereString() {
        char quote = source.charAt(pos + 1);
        int lineEnd = source.indexOf('\n', pos);
        if (lineEnd < 0 || !source.substring(pos + 2, lineEnd).isBlank()) {
            return false;
        }
        Matcher end = Pattern.compile("(?m)^" + quote + "@").matcher(source);
        if (!end.find(lineEnd)) {
            problems.add("line " + line(pos) + ": here-string @" + quote + " is never closed with " + quote + "@ at a line start");
            pos = source.length();
        } else {
            if (quote == '"') {
                expanded.append(source, lineEnd, end.start()).append('\n');
            }
            code.append("''");
            pos = end.end();
        }
        return true;
    }

    private void singleQuoted() {
        int start = pos++;
        while (pos < source.length()) {
            if (source.charAt(pos) == '\'') {
                if (pos + 1 < source.length() && source.charAt(pos + 1) == '\'') {
                    pos += 2;
                    continue;
                }
                pos++;
                code.append("''");
                return;
            }
            pos++;
        }
        problems.add("line " + line(start) + ": string ' is never closed");
    }

    private void doubleQuoted() {
        int start = pos++;
        StringBuilder text = new StringBuilder();
        while (pos < source.length()) {
            char c = source.charAt(pos);
            if (c == '`') {
                pos += 2;
            } else if (c == '"' && pos + 1 < source.length() && source.charAt(pos + 1) == '"') {
                pos += 2;
            } else if (c == '"') {
                pos++;
                code.append("\"\"");
                expanded.append(text).append('\n');
                return;
            } else if (source.startsWith("$(", pos)) {
                pos += 2;
                code.append(" (");
                scanCode(')');
                code.append(") ");
            } else {
                text.append(c);
                pos++;
            }
        }
        problems.add("line " + line(start) + ": string \" is never closed");
    }

    private void checkVariables() {
        Set<String> declared = new LinkedHashSet<>(AUTOMATIC);
        String all = code.toString();
        collect(ASSIGNED, all, declared);
        collect(FOREACH, all, declared);
        Matcher param = PARAM_BLOCK.matcher(all);
        while (param.find()) {
            int end = closingParen(all, param.end() - 1);
            collect(PARAMETER, all.substring(param.end(), end).replace(",", "\n"), declared);
        }
        Set<String> unknown = new LinkedHashSet<>();
        for (String text : List.of(all, expanded.toString())) {
            Matcher m = VARIABLE.matcher(text);
            while (m.find()) {
                String name = m.group(1) != null ? m.group(1) : m.group(2);
                boolean scoped = !m.group(3).isEmpty() && m.group(1) == null;
                if (!scoped && declared.stream().noneMatch(name::equalsIgnoreCase)) {
                    unknown.add(name);
                }
            }
        }
        unknown.forEach(name -> problems.add("$" + name + " is read but never assigned, declared or automatic"));
    }

    private static void collect(Pattern pattern, String text, Set<String> into) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    private static int closingParen(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return text.length();
    }

    private static char matching(char open) {
        return switch (open) {
            case '(' -> ')';
            case '{' -> '}';
            default -> ']';
        };
    }

    private int line(int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < source.length(); i++) {
            if (source.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
