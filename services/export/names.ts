// The six languages of code export by their packages' names, and how the packages call them
// (their `displayName`). No imports: the UI's language picker takes these too.
export const EXPORT_LANGUAGES = [
  "csharp-nunit",
  "csharp-xunit",
  "java-junit",
  "javascript-mocha",
  "python-pytest",
  "ruby-rspec",
] as const;

export type ExportLanguage = (typeof EXPORT_LANGUAGES)[number];

export const EXPORT_LANGUAGE_NAMES: Record<ExportLanguage, string> = {
  "csharp-nunit": "C# NUnit",
  "csharp-xunit": "C# xUnit",
  "java-junit": "Java JUnit",
  "javascript-mocha": "JavaScript Mocha",
  "python-pytest": "Python pytest",
  "ruby-rspec": "Ruby RSpec",
};

export function isExportLanguage(value: unknown): value is ExportLanguage {
  return typeof value === "string" && (EXPORT_LANGUAGES as readonly string[]).includes(value);
}
