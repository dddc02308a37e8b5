package io.qatwatch.dist;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PowerShellCheckTest {

    @Test
    void aWellFormedScriptHasNoProblems() {
        String script = """
                #Requires -RunAsAdministrator
                <# help, with an apostrophe: procrun's #>
                [CmdletBinding()]
                param([string] $Name = 'x', [switch] $Purge)
                function Invoke-Native {
                    param([string] $Program, [string[]] $Arguments)
                    & $Program @Arguments
                    if ($LASTEXITCODE -ne 0) { throw "$Program $($Arguments -join ' ') failed" }
                }
                $path = Join-Path $env:ProgramData 'qatwatch'
                foreach ($file in @($path)) { Write-Host "${file}: it's `"here`"" }
                $text = @"
                unbalanced ( in a here-string, $Name
                "@
                """;

        assertThat(PowerShellCheck.problems(script)).isEmpty();
    }

    @Test
    void anUnclosedBraceIsFoundWithItsLine() {
        assertThat(PowerShellCheck.problems("if ($true) {\n  Write-Host 'a'\n"))
                .containsExactly("line 1: '{' is never closed");
    }

    @Test
    void aMismatchedBracketIsFound() {
        assertThat(PowerShellCheck.problems("$a = @(1, 2}\n"))
                .containsExactly("line 1: '}' closes '(' opened on line 1");
    }

    @Test
    void anUnterminatedStringIsFound() {
        assertThat(PowerShellCheck.problems("Write-Host 'it is\n"))
                .containsExactly("line 1: string ' is never closed");
    }

    @Test
    void aMisspeltVariableIsFound() {
        assertThat(PowerShellCheck.problems("param([string] $ServiceName)\nStop-Service -Name $ServiceNmae\n"))
                .containsExactly("$ServiceNmae is read but never assigned, declared or automatic");
    }

    @Test
    void aMisspeltVariableInsideAStringIsFound() {
        assertThat(PowerShellCheck.problems("$logs = 'x'\nWrite-Host \"see $log\"\n"))
                .containsExactly("$log is read but never assigned, declared or automatic");
    }
}
