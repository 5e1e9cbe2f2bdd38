Pod::Spec.new do |s|
  s.name             = 'VaultKit'
  s.version          = '2.1.0'
  s.summary          = 'Secrets kept in Core Data.'
  s.homepage         = 'https://example.com/VaultKit'
  s.license          = { :type => 'MIT', :file => 'LICENSE' }
  s.author           = { 'Example' => 'dev@example.com' }
  s.source           = { :git => 'https://example.com/VaultKit.git', :tag => s.version.to_s }
  s.ios.deployment_target = '13.0'

  s.source_files = 'VaultKit/Classes/**/*.{h,m}'
  s.resource_bundles = {
    'VaultKit' => ['VaultKit/Assets/*.xcdatamodeld'] # the model, compiled into VaultKit.bundle
  }
  s.frameworks = 'CoreData'
end
